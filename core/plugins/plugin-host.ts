import { watch, type FSWatcher } from 'node:fs';
import type {
  Disposable,
  DocumentKind,
  DocumentKinds,
  HostHooks,
  PluginContext,
  ToolDefinition,
} from '@vmark/sdk';
import {
  DisposableStore,
  DocumentKindsToken,
  HOST_API_VERSION,
  HostLogToken,
  isPluginDefinition,
} from '@vmark/sdk';
import { Container, inject, injectable } from 'inversify';
import { HostContainerToken, HostHooksToken, HostOptionsToken } from '../tokens/host-tokens.js';
import { pluginHooks } from '../hooks/plugin-hooks.js';
import type { HostOptions } from '../tokens/host-options.js';
import { LogHub } from '../log/log-hub.js';
import { ToolRegistry } from './tool-registry.js';
import { CommandRegistry } from './command-registry.js';
import { type Diagnostic, error, hasErrors, warning } from './diagnostics.js';
import { discoverPlugins, type PluginCandidate, type PluginRoot, type PluginSource } from './discovery.js';
import type { SettingDeclaration } from '../settings/setting-declaration.js';
import { contributedPoints, ExtensionPointRegistry } from './extension-points.js';
import type { PanelContribution, PluginManifest, ViewContribution } from './manifest.js';
import { PanelRegistry } from './panel-registry.js';
import { PluginFolderWatch } from './plugin-folder-watch.js';
import { PLUGIN_STATE_FILE, type PluginState, readPluginState, writePluginState } from './plugin-state.js';
import { type CheckedPlugin, resolvePlugins } from './resolve-plugins.js';
import { validateManifest } from './validate-manifest.js';

/** What the plugin manager and `vmark plugins list` show for one plugin. */
export interface PluginReport {
  readonly id: string;
  readonly name: string;
  readonly version: string;
  readonly source: PluginSource;
  readonly dir: string | null;
  readonly enabled: boolean;
  readonly active: boolean;
  readonly diagnostics: readonly Diagnostic[];
  readonly tools: readonly string[];
  readonly kinds: readonly string[];
  /** The kinds' titles, in the order of `kinds` (a kind without a title shows its id). */
  readonly kindTitles: readonly string[];
  readonly commands: readonly string[];
  readonly panels: readonly string[];
  /** The keys of the settings it declares. */
  readonly settings: readonly string[];
  /** The ids of the plugins it needs (its manifest's `dependencies`). */
  readonly dependencies: readonly string[];
}

/** One enabled plugin's `contributes.settings`, as the settings catalog reads them. */
export interface PluginSettings {
  readonly id: string;
  readonly name: string;
  readonly settings: Readonly<Record<string, SettingDeclaration>>;
}

/** A panel of an active plugin that ships from a folder, for the UI server and the renderer. */
export interface ActivePanel {
  readonly pluginId: string;
  /** The plugin folder, whose `ui/` the panel's module is served from. */
  readonly dir: string;
  readonly panel: PanelContribution;
}

/** A kind view of an active plugin that ships from a folder (ADR 35). */
export interface ActiveView {
  readonly pluginId: string;
  /** The plugin folder, whose `ui/` the view's module is served from. */
  readonly dir: string;
  readonly view: ViewContribution;
}

/** Whose contributions to an extension point take precedence when two collide. */
const SOURCE_RANK: Record<PluginSource, number> = { builtin: 0, inline: 0, user: 1, npm: 2 };

interface Entry extends CheckedPlugin {
  readonly candidate: PluginCandidate;
}

interface ActivePlugin {
  /** The candidate that runs under this id. */
  readonly key: string;
  readonly manifest: PluginManifest;
  readonly subscriptions: DisposableStore;
  readonly container: Container;
  readonly deactivate?: () => void | Promise<void>;
}

/** Finds, checks, orders, activates and deactivates plugins, and follows the enabled state on disk. */
@injectable()
export class PluginHost {
  #entries: Entry[] = [];
  #active = new Map<string, ActivePlugin>();
  /** From the last resolution: replaced on every reconciliation. */
  #resolutionProblems = new Map<string, readonly Diagnostic[]>();
  /** From activating and deactivating: kept until that candidate is activated again. */
  #runtimeProblems = new Map<string, readonly Diagnostic[]>();
  #state: PluginState = { disabled: [] };
  #queue: Promise<void> = Promise.resolve();
  #watcher: FSWatcher | undefined;
  #watchTimer: NodeJS.Timeout | undefined;
  /** The user and npm plugin folders, followed with `watchPluginState` once `discover` ran. */
  #folderWatch: PluginFolderWatch | undefined;
  #disposed = false;
  #listeners = new Set<() => void>();
  /** The host halves of the active plugins' panels; the UI server routes panel requests here. */
  readonly panels = new PanelRegistry();
  /** The extension points the active plugins opened, and what others contributed to them. */
  readonly extensionPoints = new ExtensionPointRegistry();
  /** The plugin ids of the last resolution, in activation order: whose contributions take precedence. */
  #order: readonly string[] = [];
  /** The candidate keys that won their ids in the last resolution. */
  #chosen = new Set<string>();

  constructor(
    @inject(HostContainerToken) private readonly root: Container,
    @inject(HostHooksToken) private readonly hooks: HostHooks,
    @inject(HostOptionsToken) private readonly options: HostOptions,
    @inject(ToolRegistry) private readonly tools: ToolRegistry,
    @inject(DocumentKindsToken) private readonly kinds: DocumentKinds,
    @inject(CommandRegistry) private readonly commands: CommandRegistry,
    @inject(LogHub) private readonly log: LogHub,
  ) {}

  /** Checks the candidates and activates those that should run. */
  async load(candidates: readonly PluginCandidate[]): Promise<void> {
    this.#entries = checkCandidates(candidates);
    for (const entry of this.#entries) for (const d of entry.diagnostics) this.#tell(entry, d);
    await this.reconcile();
    if (this.options.watchPluginState) this.#watchState();
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
    const run = this.#queue.then(() => this.#reconcile());
    // One failed pass must not block the ones after it.
    this.#queue = run.catch(() => undefined);
    return run;
  }

  async setEnabled(id: string, enabled: boolean): Promise<void> {
    const state = await readPluginState(this.options.home);
    const disabled = enabled ? state.disabled.filter((d) => d !== id) : [...state.disabled, id];
    await writePluginState(this.options.home, { disabled });
    await this.reconcile();
  }

  reports(): PluginReport[] {
    return this.#entries.map((entry) => {
      const raw = (entry.candidate.raw ?? {}) as Partial<Record<'id' | 'name' | 'version', unknown>>;
      const manifest = entry.manifest;
      const id = pluginIdOf(entry);
      return {
        id,
        name: manifest?.name ?? (typeof raw.name === 'string' ? raw.name : id),
        version: manifest?.version ?? (typeof raw.version === 'string' ? raw.version : '0.0.0'),
        source: entry.candidate.source,
        dir: entry.candidate.dir,
        enabled: !this.#state.disabled.includes(id),
        active: this.#active.get(id)?.key === entry.key,
        diagnostics: [
          ...entry.diagnostics,
          ...(this.#resolutionProblems.get(entry.key) ?? []),
          ...(this.#runtimeProblems.get(entry.key) ?? []),
        ],
        tools: manifest?.contributes?.tools?.map((t) => t.name) ?? [],
        kinds: manifest?.contributes?.kinds?.map((k) => k.id) ?? [],
        kindTitles: manifest?.contributes?.kinds?.map((k) => k.title ?? k.id) ?? [],
        commands: manifest?.contributes?.commands?.map((c) => c.name) ?? [],
        panels: manifest?.contributes?.panels?.map((p) => p.id) ?? [],
        settings: Object.keys(manifest?.contributes?.settings ?? {}),
        dependencies: Object.keys(manifest?.dependencies ?? {}),
      };
    });
  }

  /**
   * The settings each enabled plugin with a valid manifest declares, running or not (one that
   * failed to start still shows its settings, which may be why). A turned-off plugin reads none.
   */
  declaredSettings(): PluginSettings[] {
    return this.#entries.flatMap(({ manifest, diagnostics }) =>
      manifest &&
      !diagnostics.some((d) => d.severity === 'error') &&
      !this.#state.disabled.includes(manifest.id)
        ? [{ id: manifest.id, name: manifest.name, settings: manifest.contributes?.settings ?? {} }]
        : [],
    );
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

  #activeFolders(): { pluginId: string; dir: string; manifest: PluginManifest }[] {
    return [...this.#active].flatMap(([pluginId, plugin]) => {
      const dir = this.#entries.find((e) => e.key === plugin.key)?.candidate.dir;
      return dir == null ? [] : [{ pluginId, dir, manifest: plugin.manifest }];
    });
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
    this.#watcher?.close();
    this.#watcher = undefined;
    clearTimeout(this.#watchTimer);
    await this.#queue;
    for (const id of [...this.#active.keys()].reverse()) await this.#deactivate(id);
  }

  async #reconcile(): Promise<void> {
    if (this.#disposed) return;
    this.#state = await readPluginState(this.options.home);
    const resolution = resolvePlugins(this.#entries, (id) => !this.#state.disabled.includes(id));
    const known = this.#resolutionProblems;
    this.#resolutionProblems = new Map(resolution.problems);
    // Found again on every pass: told when they are new.
    for (const entry of this.#entries) {
      const before = known.get(entry.key) ?? [];
      for (const d of this.#resolutionProblems.get(entry.key) ?? [])
        if (!before.some((b) => b.message === d.message)) this.#tell(entry, d);
    }
    this.#order = resolution.order;
    this.#chosen = new Set(resolution.chosen.values());
    const wanted = new Set(resolution.order);
    for (const id of [...this.#active.keys()].reverse()) {
      if (!wanted.has(id) || this.#active.get(id)!.key !== resolution.chosen.get(id))
        await this.#deactivate(id);
    }
    for (const id of resolution.order) {
      if (this.#active.has(id)) continue;
      const entry = this.#entries.find((e) => e.key === resolution.chosen.get(id))!;
      const deps = Object.keys(entry.manifest!.dependencies ?? {});
      const missing = deps.filter((d) => !this.#active.has(d));
      if (missing.length > 0) {
        this.#addProblem(entry, error(`not activated: dependency ${missing.join(', ')} failed to activate`));
        continue;
      }
      await this.#activate(entry);
    }
    for (const listener of [...this.#listeners]) listener();
  }

  /** Discovers again, in the queue with every reconciliation, then follows the folders there are now. */
  #rediscover(roots: readonly PluginRoot[], extra: readonly PluginCandidate[]): Promise<void> {
    const run = this.#queue.then(async () => {
      if (this.#disposed) return;
      const found = checkCandidates([...(await discoverPlugins(roots)), ...extra]);
      const known = new Set(this.#entries.map((e) => e.key));
      // A plugin found for the first time says what is wrong with it; one seen before has said it.
      for (const entry of found)
        if (!known.has(entry.key)) for (const d of entry.diagnostics) this.#tell(entry, d);
      this.#entries = found.map((entry) => this.#keepRunning(entry));
      await this.#reconcile();
      await this.#folderWatch?.sync();
    });
    this.#queue = run.catch(() => undefined);
    return run;
  }

  /**
   * The entry to go on with for a candidate found again: the new one, unless the plugin found
   * before under the same folder runs. Its module is loaded and cannot be loaded afresh, so it
   * keeps running as it was; a manifest that changed meanwhile is reported (once) as needing a restart.
   */
  #keepRunning(found: Entry): Entry {
    const before = this.#entries.find((e) => e.key === found.key);
    const running = before && [...this.#active.values()].some((plugin) => plugin.key === before.key);
    if (!before || !running) return found;
    if (JSON.stringify(before.candidate.raw) !== JSON.stringify(found.candidate.raw)) {
      const note = 'manifest.json changed on disk: restart vmark to load the new version';
      if (!this.#runtimeProblems.get(before.key)?.some((d) => d.message === note))
        this.#addProblem(before, warning(note));
    }
    return before;
  }

  async #activate(entry: Entry): Promise<void> {
    const manifest = entry.manifest!;
    this.#runtimeProblems.delete(entry.key);
    // The owners check what the plugin contributes to their points before any of its code runs.
    const verdicts = this.extensionPoints.check(manifest, (pointId) => this.#peers(entry, pointId));
    for (const diagnostic of verdicts) this.#addProblem(entry, diagnostic);
    if (hasErrors(verdicts)) {
      this.#addProblem(entry, error('not activated: its contributions were refused'));
      return;
    }
    const subscriptions = new DisposableStore();
    const container = new Container({ parent: this.root });
    // Each plugin speaks under its own id (`vmark: <id>: ...` on stderr).
    container.bind(HostLogToken).toConstantValue(this.log.scoped(manifest.id, `${manifest.id}: `));
    const registered = new Set<string>();
    const hooks = pluginHooks(this.hooks, manifest.id);
    const context: PluginContext = {
      id: manifest.id,
      container,
      hooks: {
        tap: (name, fn) => subscriptions.add(hooks.tap(name, fn)),
        tapWaterfall: (name, fn) => subscriptions.add(hooks.tapWaterfall(name, fn)),
      },
      get: (token) => container.get(token),
      registerTool: (tool) => {
        checkToolAgainstManifest(manifest, tool);
        registered.add(tool.name);
        return subscriptions.add(this.tools.add(manifest.id, tool));
      },
      registerCommand: (command) => {
        if (!manifest.contributes?.commands?.some((c) => c.name === command.name)) {
          throw new Error(
            `plugin "${manifest.id}" registers command "${command.name}" that its manifest does not declare`,
          );
        }
        return subscriptions.add(this.commands.add(manifest.id, command));
      },
      registerKind: (kind: DocumentKind) => {
        if (!manifest.contributes?.kinds?.some((k) => k.id === kind.id)) {
          throw new Error(
            `plugin "${manifest.id}" registers document kind "${kind.id}" that its manifest does not declare`,
          );
        }
        return subscriptions.add(this.kinds.register(kind));
      },
      registerPanel: (provider) => {
        if (!manifest.contributes?.panels?.some((p) => p.id === provider.id)) {
          throw new Error(
            `plugin "${manifest.id}" registers panel "${provider.id}" that its manifest does not declare`,
          );
        }
        return subscriptions.add(this.panels.add(manifest.id, provider));
      },
      declareExtensionPoint: (id, options) => {
        if (!manifest.contributes?.extensionPoints?.some((p) => p.id === id)) {
          throw new Error(
            `plugin "${manifest.id}" opens extension point "${id}" that its manifest does not declare`,
          );
        }
        return subscriptions.add(this.extensionPoints.declare(manifest.id, id, options));
      },
      contribute: (pointId, value) =>
        subscriptions.add(this.extensionPoints.contribute(manifest, pointId, value)),
      track: (disposable) => subscriptions.add(disposable),
    };
    try {
      const module = await entry.candidate.load(manifest.main);
      if (!isPluginDefinition(module)) {
        throw new Error(`the default export of ${manifest.main} is not a plugin (use definePlugin)`);
      }
      await module.activate(context);
      this.#active.set(manifest.id, {
        key: entry.key,
        manifest,
        subscriptions,
        container,
        deactivate: module.deactivate?.bind(module),
      });
      for (const tool of manifest.contributes?.tools ?? []) {
        if (!registered.has(tool.name))
          this.#addProblem(entry, warning(`declares tool "${tool.name}" but did not register it`));
      }
    } catch (cause) {
      subscriptions.dispose();
      container.unbindAll();
      this.#addProblem(
        entry,
        error(`activation failed: ${cause instanceof Error ? cause.message : String(cause)}`),
      );
    }
  }

  /** Never throws: a plugin that fails to tear down is reported, and its registrations are undone regardless. */
  async #deactivate(id: string): Promise<void> {
    const plugin = this.#active.get(id);
    if (!plugin) return;
    this.#active.delete(id);
    this.#runtimeProblems.delete(plugin.key);
    const steps = [
      () => plugin.deactivate?.(),
      () => plugin.subscriptions.dispose(),
      () => plugin.container.unbindAll(),
    ];
    for (const step of steps) {
      try {
        await step();
      } catch (cause) {
        const message = cause instanceof Error ? cause.message : String(cause);
        const entry = this.#entries.find((e) => e.key === plugin.key);
        if (entry) this.#addProblem(entry, warning(`deactivation failed: ${message}`));
      }
    }
  }

  /**
   * The declarations for `pointId` that take precedence over `entry`'s: of the plugins that run,
   * built-ins first, then user plugins, then npm packages, each in activation order.
   */
  #peers(entry: Entry, pointId: string): Array<{ pluginId: string; declaration: unknown }> {
    const rank = (e: Entry) =>
      [SOURCE_RANK[e.candidate.source], this.#order.indexOf(e.manifest!.id)] as const;
    const [ownRank, ownPlace] = rank(entry);
    return this.#entries
      .filter((e) => e !== entry && this.#chosen.has(e.key) && this.#order.includes(e.manifest!.id))
      .filter((e) => {
        const [r, place] = rank(e);
        return r < ownRank || (r === ownRank && place < ownPlace);
      })
      .sort((a, b) => rank(a)[0] - rank(b)[0] || rank(a)[1] - rank(b)[1])
      .flatMap((e) =>
        contributedPoints(e.manifest!)
          .filter(([key]) => key === pointId)
          .map(([, declaration]) => ({ pluginId: e.manifest!.id, declaration })),
      );
  }

  #addProblem(entry: Entry, diagnostic: Diagnostic): void {
    this.#runtimeProblems.set(entry.key, [...(this.#runtimeProblems.get(entry.key) ?? []), diagnostic]);
    this.#tell(entry, diagnostic);
  }

  /** A plugin's problem, for the person's terminal and the connected MCP clients. */
  #tell(entry: Entry, { severity, message }: Diagnostic): void {
    this.log.log('plugins', severity, `plugin ${pluginIdOf(entry)}: ${message}`);
  }

  #watchState(): void {
    // The folder, not the file: the state file is replaced by rename on every write.
    this.#watcher = watch(this.options.home, (_event, filename) => {
      if (filename !== PLUGIN_STATE_FILE) return;
      clearTimeout(this.#watchTimer);
      this.#watchTimer = setTimeout(() => void this.reconcile().catch(() => undefined), 50);
    });
    this.#watcher.unref();
  }
}

/**
 * The candidates with their manifests checked. Each has a key of its own that stays the same when
 * the plugins are discovered again: its folder, or its place among the plugins handed over in memory.
 */
function checkCandidates(candidates: readonly PluginCandidate[]): Entry[] {
  let inline = 0;
  return candidates.map((candidate) => {
    const key = candidate.dir ?? `inline:${inline++}`;
    if (candidate.raw === undefined) {
      return {
        key,
        candidate,
        diagnostics: [error(candidate.readError ?? 'manifest.json could not be read')],
      };
    }
    return { key, candidate, ...validateManifest(candidate.raw, HOST_API_VERSION) };
  });
}

/** The id a plugin goes by: its manifest's, else what its unreadable manifest says, else its folder. */
function pluginIdOf(entry: Entry): string {
  const raw = (entry.candidate.raw ?? {}) as { id?: unknown };
  return entry.manifest?.id ?? (typeof raw.id === 'string' ? raw.id : entry.key);
}

/** A tool must be registered exactly as its manifest declares it: the host lists tools from manifests. */
function checkToolAgainstManifest(manifest: PluginManifest, tool: ToolDefinition): void {
  const declared = manifest.contributes?.tools?.find((t) => t.name === tool.name);
  const where = `plugin "${manifest.id}" tool "${tool.name}"`;
  if (!declared) throw new Error(`${where} is not declared in the manifest's contributes.tools`);
  if (declared.title !== tool.title) throw new Error(`${where}: title differs from the manifest`);
  for (const hint of ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const) {
    if (declared.annotations[hint] !== tool.annotations[hint])
      throw new Error(`${where}: ${hint} differs from the manifest`);
  }
  const sameActions =
    declared.actions.length === tool.actionNames.length &&
    declared.actions.every((a, i) => a === tool.actionNames[i]);
  if (!sameActions) {
    throw new Error(
      `${where}: actions [${tool.actionNames.join(', ')}] differ from the manifest's [${declared.actions.join(', ')}]`,
    );
  }
}
