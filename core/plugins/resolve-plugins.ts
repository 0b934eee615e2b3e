import satisfies from 'semver/functions/satisfies.js';
import { type Diagnostic, error, hasErrors } from './diagnostics.js';
import { contributedPoints } from './extension-points.js';
import type { PluginManifest } from './manifest.js';

export interface CheckedPlugin {
  /** Unique per candidate, even when two candidates claim the same id. */
  readonly key: string;
  readonly manifest?: PluginManifest;
  readonly diagnostics: readonly Diagnostic[];
}

export interface Resolution {
  /** Plugin ids to activate, dependencies first. */
  readonly order: readonly string[];
  /** For each plugin id, the key of the candidate that won it (the first valid one found). */
  readonly chosen: ReadonlyMap<string, string>;
  /** Diagnostics found while resolving, by candidate key, added to each plugin's own. */
  readonly problems: ReadonlyMap<string, readonly Diagnostic[]>;
}

/**
 * Decides which plugins run and in what order. Pure. A plugin runs when its
 * manifest is valid and compatible, its id and contributions are its own, it is
 * enabled, and every dependency runs at a version in range.
 */
export function resolvePlugins(
  plugins: readonly CheckedPlugin[],
  isEnabled: (id: string) => boolean,
): Resolution {
  const problems = new Map<string, Diagnostic[]>();
  const report = (key: string, d: Diagnostic) => problems.set(key, [...(problems.get(key) ?? []), d]);

  const byId = new Map<string, CheckedPlugin & { manifest: PluginManifest }>();
  const claimedTools = new Map<string, string>();
  const claimedKinds = new Map<string, string>();
  const claimedCommands = new Map<string, string>();
  for (const plugin of plugins) {
    const manifest = plugin.manifest;
    if (!manifest || hasErrors(plugin.diagnostics)) continue;
    if (byId.has(manifest.id)) {
      report(
        plugin.key,
        error(`another plugin with id "${manifest.id}" was found first (${byId.get(manifest.id)!.key})`),
      );
      continue;
    }
    const tool = manifest.contributes?.tools?.find((t) => claimedTools.has(t.name));
    if (tool) {
      report(
        plugin.key,
        error(`tool "${tool.name}" is already contributed by plugin "${claimedTools.get(tool.name)}"`),
      );
      continue;
    }
    const kind = manifest.contributes?.kinds?.find((k) => claimedKinds.has(k.id));
    if (kind) {
      report(
        plugin.key,
        error(`document kind "${kind.id}" is already contributed by plugin "${claimedKinds.get(kind.id)}"`),
      );
      continue;
    }
    const command = manifest.contributes?.commands?.find((c) => claimedCommands.has(c.name));
    if (command) {
      report(
        plugin.key,
        error(
          `command "${command.name}" is already contributed by plugin "${claimedCommands.get(command.name)}"`,
        ),
      );
      continue;
    }
    byId.set(manifest.id, { ...plugin, manifest });
    for (const c of manifest.contributes?.commands ?? []) claimedCommands.set(c.name, manifest.id);
    for (const t of manifest.contributes?.tools ?? []) claimedTools.set(t.name, manifest.id);
    for (const k of manifest.contributes?.kinds ?? []) claimedKinds.set(k.id, manifest.id);
  }

  // A contribution to an extension point needs the point's owner among the plugin's dependencies:
  // the owner then runs first and checks it.
  for (const [id, plugin] of byId) {
    for (const [pointId] of contributedPoints(plugin.manifest)) {
      const owned = Object.keys(plugin.manifest.dependencies ?? {}).some((dep) =>
        byId.get(dep)?.manifest.contributes?.extensionPoints?.some((p) => p.id === pointId),
      );
      if (!owned) {
        report(
          plugin.key,
          error(`contributes to extension point "${pointId}", which none of its dependencies declares`),
        );
        byId.delete(id);
        break;
      }
    }
  }

  const running = new Set([...byId.keys()].filter(isEnabled));
  // Dropping one plugin can strand its dependents, so repeat until nothing changes.
  for (let changed = true; changed;) {
    changed = false;
    for (const id of [...running]) {
      const plugin = byId.get(id)!;
      for (const [dep, range] of Object.entries(plugin.manifest.dependencies ?? {})) {
        const target = byId.get(dep);
        const why = !target
          ? 'which is not installed or not loadable'
          : !isEnabled(dep)
            ? 'which is disabled'
            : !running.has(dep)
              ? 'which cannot run'
              : !satisfies(target.manifest.version, range)
                ? `but version ${target.manifest.version} is installed`
                : null;
        if (why !== null) {
          report(plugin.key, error(`requires plugin "${dep}" ${range}, ${why}`));
          running.delete(id);
          changed = true;
          break;
        }
      }
    }
  }

  const depsOf = (id: string) => Object.keys(byId.get(id)!.manifest.dependencies ?? {});
  const order: string[] = [];
  const placed = new Set<string>();
  const pending = [...running].sort();
  while (pending.length > 0) {
    const ready = pending.find((id) => depsOf(id).every((d) => placed.has(d)));
    if (ready === undefined) {
      reportCycles(pending, depsOf, (id, d) => report(byId.get(id)!.key, d));
      break;
    }
    order.push(ready);
    placed.add(ready);
    pending.splice(pending.indexOf(ready), 1);
  }
  return { order, chosen: new Map([...byId].map(([id, plugin]) => [id, plugin.key])), problems };
}

/** Of the plugins that cannot be ordered, names those on a cycle as such and the rest as depending on one. */
function reportCycles(
  stuck: readonly string[],
  depsOf: (id: string) => string[],
  report: (id: string, d: Diagnostic) => void,
): void {
  const stuckDeps = (id: string) => depsOf(id).filter((d) => stuck.includes(d));
  const reachesItself = (start: string): boolean => {
    const seen = new Set<string>();
    const queue = stuckDeps(start);
    for (let next = queue.pop(); next !== undefined; next = queue.pop()) {
      if (next === start) return true;
      if (!seen.has(next)) {
        seen.add(next);
        queue.push(...stuckDeps(next));
      }
    }
    return false;
  };
  const members = stuck.filter(reachesItself);
  for (const id of stuck) {
    const message = members.includes(id)
      ? `is part of a dependency cycle among: ${members.join(', ')}`
      : `cannot run: it depends on a dependency cycle among: ${members.join(', ')}`;
    report(id, error(message));
  }
}
