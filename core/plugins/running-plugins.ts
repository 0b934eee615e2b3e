/** Activation and deactivation: the plugins that run, each in a child container of its own, and what they registered. */
import { DisposableStore, HostLogToken, isPluginDefinition, type PeerDeclaration } from '@vmark/sdk';
import { Container } from 'inversify';
import type { LogHub } from '../log/log-hub.js';
import { error, hasErrors, warning } from './diagnostics.js';
import type { PluginManifest } from './manifest.js';
import { pluginContext, type PluginRegistries } from './plugin-context.js';
import type { PluginEntry } from './plugin-entry.js';
import type { PluginProblems } from './plugin-problems.js';

interface RunningPlugin {
  /** The candidate that runs under this id. */
  readonly key: string;
  readonly manifest: PluginManifest;
  readonly subscriptions: DisposableStore;
  readonly container: Container;
  readonly deactivate?: () => void | Promise<void>;
}

/** What activation needs of the host besides its registries. */
export interface PluginRuntime extends PluginRegistries {
  /** The host's container, each plugin's container's parent. */
  readonly root: Container;
  readonly log: LogHub;
  readonly problems: PluginProblems;
  /** The entry of a candidate key, for reporting a problem met while deactivating it. */
  readonly entryOf: (key: string) => PluginEntry | undefined;
}

export class RunningPlugins {
  /** By plugin id, in activation order. */
  readonly #active = new Map<string, RunningPlugin>();

  constructor(private readonly runtime: PluginRuntime) {}

  /** The ids of the running plugins, in activation order. */
  ids(): string[] {
    return [...this.#active.keys()];
  }

  has(id: string): boolean {
    return this.#active.has(id);
  }

  /** The key of the candidate that runs under `id`, if one does. */
  keyOf(id: string): string | undefined {
    return this.#active.get(id)?.key;
  }

  /** Whether the candidate of `key` runs. */
  runs(key: string): boolean {
    return [...this.#active.values()].some((plugin) => plugin.key === key);
  }

  /** The running plugins' manifests with their candidate keys, in activation order. */
  manifests(): Array<{ pluginId: string; key: string; manifest: PluginManifest }> {
    return [...this.#active].map(([pluginId, { key, manifest }]) => ({ pluginId, key, manifest }));
  }

  /**
   * Activates `entry` (valid, resolved, its dependencies running); `peers` gives the declarations
   * that take precedence over its own. Never throws: a failure is reported and undone.
   */
  async activate(entry: PluginEntry, peers: (pointId: string) => readonly PeerDeclaration[]): Promise<void> {
    const { problems, extensionPoints, log } = this.runtime;
    const manifest = entry.manifest!;
    problems.clearRuntime(entry.key);
    // The owners check what the plugin contributes to their points before any of its code runs.
    const verdicts = extensionPoints.check(manifest, peers);
    for (const diagnostic of verdicts) problems.add(entry, diagnostic);
    if (hasErrors(verdicts)) {
      problems.add(entry, error('not activated: its contributions were refused'));
      return;
    }
    const subscriptions = new DisposableStore();
    const container = new Container({ parent: this.runtime.root });
    // Each plugin speaks under its own id (`vmark: <id>: ...` on stderr).
    container.bind(HostLogToken).toConstantValue(log.scoped(manifest.id, `${manifest.id}: `));
    const registered = new Set<string>();
    const context = pluginContext(manifest, this.runtime, container, subscriptions, registered);
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
          problems.add(entry, warning(`declares tool "${tool.name}" but did not register it`));
      }
      for (const command of manifest.contributes?.editorCommands ?? []) {
        // A command its text view runs in the page is listed while the plugin runs (ADR 72).
        if (command.runsIn === 'page')
          subscriptions.add(this.runtime.editorCommands.addPageCommand(manifest.id, command));
        else if (!this.runtime.editorCommands.has(command.id))
          problems.add(entry, warning(`declares editor command "${command.id}" but did not handle it`));
      }
    } catch (cause) {
      subscriptions.dispose();
      container.unbindAll();
      problems.add(
        entry,
        error(`activation failed: ${cause instanceof Error ? cause.message : String(cause)}`),
      );
    }
  }

  /** Never throws: a plugin that fails to tear down is reported, and its registrations are undone regardless. */
  async deactivate(id: string): Promise<void> {
    const plugin = this.#active.get(id);
    if (!plugin) return;
    this.#active.delete(id);
    this.runtime.problems.clearRuntime(plugin.key);
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
        const entry = this.runtime.entryOf(plugin.key);
        if (entry) this.runtime.problems.add(entry, warning(`deactivation failed: ${message}`));
      }
    }
  }
}
