/**
 * The plugin host: the coordinator of the modules beside it. It finds and checks plugins
 * (discovery, plugin-entry), decides which run (resolve-plugins), brings the running set in line
 * (plugin-reconciliation, running-plugins), follows the enabled state and the plugin folders on
 * disk (plugin-state-watch, plugin-folder-watch) and reports (plugin-report, plugin-problems).
 */
import type { Disposable, DocumentKinds, HostHooks } from '@vmark/sdk';
import { DocumentKindsToken, SerialQueue } from '@vmark/sdk';
import { type Container, inject, injectable } from 'inversify';
import { HostContainerToken, HostHooksToken, HostOptionsToken } from '../tokens/host-tokens.js';
import type { HostOptions } from '../tokens/host-options.js';
import { LogHub } from '../log/log-hub.js';
import { ToolRegistry } from './tool-registry.js';
import { CommandRegistry } from './command-registry.js';
import { precedingDeclarations } from './contribution-precedence.js';
import { discoverPlugins, type PluginCandidate, type PluginRoot } from './discovery.js';
import { EditorCommandRegistry } from './editor-command-registry.js';
import { ExtensionPointRegistry } from './extension-points.js';
import type { PluginManifest } from './manifest.js';
import { PanelRegistry } from './panel-registry.js';
import { ViewProviderRegistry } from './view-provider-registry.js';
import { checkCandidates, type PluginEntry, pluginIdOf } from './plugin-entry.js';
import { PluginFolderWatch } from './plugin-folder-watch.js';
import { PluginProblems } from './plugin-problems.js';
import { keepRunning, runResolved } from './plugin-reconciliation.js';
import {
  type ActivePanel,
  type ActiveView,
  declaredSettings,
  pluginReport,
  type PluginReport,
  type PluginSettings,
} from './plugin-report.js';
import { type PluginState, readPluginState, writePluginState } from './plugin-state.js';
import { PluginStateWatch } from './plugin-state-watch.js';
import { resolvePlugins } from './resolve-plugins.js';
import { RunningPlugins } from './running-plugins.js';

export type { ActivePanel, ActiveView, PluginReport, PluginSettings } from './plugin-report.js';

/** Finds, checks, orders, activates and deactivates plugins, and follows the enabled state on disk. */
@injectable()
export class PluginHost {
  #entries: PluginEntry[] = [];
  readonly #problems: PluginProblems;
  readonly #running: RunningPlugins;
  #state: PluginState = { disabled: [] };
  readonly #queue = new SerialQueue();
  #stateWatch: PluginStateWatch | undefined;
  /** The user and npm plugin folders, followed with `watchPluginState` once `discover` ran. */
  #folderWatch: PluginFolderWatch | undefined;
  #disposed = false;
  #listeners = new Set<() => void>();
  /** The host halves of the active plugins' panels; the UI server routes panel requests here. */
  readonly panels = new PanelRegistry();
  /** The host halves of the active plugins' custom kind views (ADR 49). */
  readonly views = new ViewProviderRegistry();
  /** The editor commands the active plugins handle (ADR 61): the palette and the person's keys run them. */
  readonly editorCommands = new EditorCommandRegistry();
  /** The extension points the active plugins opened, and what others contributed to them. */
  readonly extensionPoints = new ExtensionPointRegistry();
  /** The plugin ids of the last resolution, in activation order: whose contributions take precedence. */
  #order: readonly string[] = [];
  /** The candidate keys that won their ids in the last resolution. */
  #chosen = new Set<string>();

  constructor(
    @inject(HostContainerToken) root: Container,
    @inject(HostHooksToken) hooks: HostHooks,
    @inject(HostOptionsToken) private readonly options: HostOptions,
    @inject(ToolRegistry) tools: ToolRegistry,
    @inject(DocumentKindsToken) kinds: DocumentKinds,
    @inject(CommandRegistry) commands: CommandRegistry,
    @inject(LogHub) log: LogHub,
  ) {
    const problems = (this.#problems = new PluginProblems(log));
    this.#running = new RunningPlugins({
      root,
      log,
      problems,
      hooks,
      tools,
      kinds,
      commands,
      panels: this.panels,
      editorCommands: this.editorCommands,
      views: this.views,
      extensionPoints: this.extensionPoints,
      entryOf: (key) => this.#entries.find((e) => e.key === key),
    });
  }

  /** Checks the candidates and activates those that should run. */
  async load(candidates: readonly PluginCandidate[]): Promise<void> {
    this.#entries = checkCandidates(candidates);
    for (const entry of this.#entries) for (const d of entry.diagnostics) this.#problems.tell(entry, d);
    await this.reconcile();
    if (this.options.watchPluginState)
      this.#stateWatch = new PluginStateWatch(
        this.options.home,
        () => void this.reconcile().catch(() => undefined),
      );
  }

  /**
   * Discovers the plugins in `roots`, takes `extra` ones handed over in memory, and loads them.
   * With `watchPluginState`, the user and npm roots are followed too (ADR 27): a plugin added
   * there while the host runs is checked and, if valid and enabled, activated (its tools reach
   * every MCP session with `tools/list_changed`); one removed is deactivated; one that did not
   * load is tried again when its folder changes. A running plugin's code is not reloaded: a
   * changed manifest is reported as needing a restart.
   */
  async discover(roots: readonly PluginRoot[], extra: readonly PluginCandidate[] = []): Promise<void> {
    await this.load([...(await discoverPlugins(roots)), ...extra]);
    if (!this.options.watchPluginState || this.#disposed) return;
    const followed = roots.filter((root) => root.source !== 'builtin');
    this.#folderWatch = new PluginFolderWatch(followed, () => void this.#rediscover(roots, extra));
    await this.#folderWatch.sync();
  }

  /** Brings the running set in line with the manifests and the enabled state on disk. */
  reconcile(): Promise<void> {
    // One failed pass does not block the ones after it.
    return this.#queue.run(() => this.#reconcile());
  }

  async setEnabled(id: string, enabled: boolean): Promise<void> {
    const state = await readPluginState(this.options.home);
    const disabled = enabled ? state.disabled.filter((d) => d !== id) : [...state.disabled, id];
    await writePluginState(this.options.home, { disabled });
    await this.reconcile();
  }

  reports(): PluginReport[] {
    return this.#entries.map((entry) => {
      const id = pluginIdOf(entry);
      return pluginReport(entry, {
        enabled: !this.#state.disabled.includes(id),
        active: this.#running.keyOf(id) === entry.key,
        diagnostics: this.#problems.of(entry),
      });
    });
  }

  /**
   * The settings each enabled plugin with a valid manifest declares, running or not (one that
   * failed to start still shows its settings, which may be why). A turned-off plugin reads none.
   */
  declaredSettings(): PluginSettings[] {
    return declaredSettings(this.#entries, this.#state.disabled);
  }

  /** The panels the active plugins declare, in activation order (a plugin in memory has no files to serve). */
  activePanels(): ActivePanel[] {
    return this.#activeFolders().flatMap(({ pluginId, dir, manifest }) =>
      (manifest.contributes?.panels ?? []).map((panel) => ({ pluginId, dir, panel })),
    );
  }

  /** The kind views the active plugins declare (ADR 35), in activation order, as `activePanels`. */
  activeViews(): ActiveView[] {
    return this.#activeFolders().flatMap(({ pluginId, dir, manifest }) =>
      (manifest.contributes?.views ?? []).map((view) => ({ pluginId, dir, view })),
    );
  }

  /** Called after every reconciliation (the plugin manager refreshes from it). */
  onDidChange(listener: () => void): Disposable {
    this.#listeners.add(listener);
    return { dispose: () => this.#listeners.delete(listener) };
  }

  /** Deactivates every plugin, dependents first. */
  async dispose(): Promise<void> {
    this.#disposed = true;
    this.#folderWatch?.dispose();
    this.#stateWatch?.dispose();
    this.#stateWatch = undefined;
    await this.#queue.idle();
    for (const id of this.#running.ids().reverse()) await this.#running.deactivate(id);
  }

  /** The active plugins that ship from a folder, in activation order. */
  #activeFolders(): { pluginId: string; dir: string; manifest: PluginManifest }[] {
    return this.#running.manifests().flatMap(({ pluginId, key, manifest }) => {
      const dir = this.#entries.find((e) => e.key === key)?.candidate.dir;
      return dir == null ? [] : [{ pluginId, dir, manifest }];
    });
  }

  async #reconcile(): Promise<void> {
    if (this.#disposed) return;
    this.#state = await readPluginState(this.options.home);
    const resolution = resolvePlugins(this.#entries, (id) => !this.#state.disabled.includes(id));
    this.#problems.resolved(this.#entries, resolution.problems);
    this.#order = resolution.order;
    this.#chosen = new Set(resolution.chosen.values());
    await runResolved(resolution, this.#entries, this.#running, this.#problems, (entry) =>
      this.#running.activate(entry, (pointId) =>
        precedingDeclarations(
          { entries: this.#entries, order: this.#order, chosen: this.#chosen },
          entry,
          pointId,
        ),
      ),
    );
    for (const listener of [...this.#listeners]) listener();
  }

  /** Discovers again, in the queue with every reconciliation, then follows the folders there are now. */
  #rediscover(roots: readonly PluginRoot[], extra: readonly PluginCandidate[]): Promise<void> {
    return this.#queue.run(async () => {
      if (this.#disposed) return;
      const found = checkCandidates([...(await discoverPlugins(roots)), ...extra]);
      const known = new Set(this.#entries.map((e) => e.key));
      // A plugin found for the first time says what is wrong with it; one seen before has said it.
      for (const entry of found)
        if (!known.has(entry.key)) for (const d of entry.diagnostics) this.#problems.tell(entry, d);
      const before = this.#entries;
      this.#entries = found.map((entry) => keepRunning(entry, before, this.#running, this.#problems));
      await this.#reconcile();
      await this.#folderWatch?.sync();
    });
  }
}
