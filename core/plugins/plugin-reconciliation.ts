/** Bringing the running plugins in line with a resolution, and carrying running plugins over a new discovery. */
import { error, warning } from './diagnostics.js';
import type { PluginEntry } from './plugin-entry.js';
import type { PluginProblems } from './plugin-problems.js';
import type { Resolution } from './resolve-plugins.js';
import type { RunningPlugins } from './running-plugins.js';

/**
 * Deactivates what no longer should run (dependents first), then activates in `resolution`'s
 * order what should and does not yet, each once its dependencies run.
 */
export async function runResolved(
  resolution: Resolution,
  entries: readonly PluginEntry[],
  running: RunningPlugins,
  problems: PluginProblems,
  activate: (entry: PluginEntry) => Promise<void>,
): Promise<void> {
  const wanted = new Set(resolution.order);
  for (const id of running.ids().reverse()) {
    if (!wanted.has(id) || running.keyOf(id) !== resolution.chosen.get(id)) await running.deactivate(id);
  }
  for (const id of resolution.order) {
    if (running.has(id)) continue;
    const entry = entries.find((e) => e.key === resolution.chosen.get(id))!;
    const deps = Object.keys(entry.manifest!.dependencies ?? {});
    const missing = deps.filter((d) => !running.has(d));
    if (missing.length > 0) {
      problems.add(entry, error(`not activated: dependency ${missing.join(', ')} failed to activate`));
      continue;
    }
    await activate(entry);
  }
}

/**
 * The entry to go on with for a candidate found again: the new one, unless the plugin found
 * before under the same folder runs. Its module is loaded and cannot be loaded afresh, so it
 * keeps running as it was; a manifest that changed meanwhile is reported (once) as needing a restart.
 */
export function keepRunning(
  found: PluginEntry,
  before: readonly PluginEntry[],
  running: RunningPlugins,
  problems: PluginProblems,
): PluginEntry {
  const earlier = before.find((e) => e.key === found.key);
  if (!earlier || !running.runs(earlier.key)) return found;
  if (JSON.stringify(earlier.candidate.raw) !== JSON.stringify(found.candidate.raw)) {
    const note = 'manifest.json changed on disk: restart vmark to load the new version';
    if (!problems.hasSaid(earlier.key, note)) problems.add(earlier, warning(note));
  }
  return earlier;
}
