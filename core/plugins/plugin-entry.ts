/** A plugin candidate with its manifest checked: what the host knows of a plugin before it runs. */
import { HOST_API_VERSION } from '@vmark/sdk';
import { error } from './diagnostics.js';
import type { PluginCandidate } from './discovery.js';
import type { CheckedPlugin } from './resolve-plugins.js';
import { validateManifest } from './validate-manifest.js';

export interface PluginEntry extends CheckedPlugin {
  readonly candidate: PluginCandidate;
}

/**
 * The candidates with their manifests checked. Each has a key of its own that stays the same when
 * the plugins are discovered again: its folder, or its place among the plugins handed over in memory.
 */
export function checkCandidates(candidates: readonly PluginCandidate[]): PluginEntry[] {
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
export function pluginIdOf(entry: PluginEntry): string {
  const raw = (entry.candidate.raw ?? {}) as { id?: unknown };
  return entry.manifest?.id ?? (typeof raw.id === 'string' ? raw.id : entry.key);
}
