/** Whose declarations for an extension point take precedence over a plugin's, when two collide (ADR 33). */
import type { PluginSource } from './discovery.js';
import { contributedPoints } from './extension-points.js';
import type { PluginEntry } from './plugin-entry.js';

const SOURCE_RANK: Record<PluginSource, number> = { builtin: 0, inline: 0, user: 1, npm: 2 };

/** The plugins of the last resolution: their ids in activation order, and the candidate keys that won them. */
export interface ResolvedSet {
  readonly entries: readonly PluginEntry[];
  readonly order: readonly string[];
  readonly chosen: ReadonlySet<string>;
}

/**
 * The declarations for `pointId` that take precedence over `entry`'s: of the plugins that run,
 * built-ins first, then user plugins, then npm packages, each in activation order.
 */
export function precedingDeclarations(
  { entries, order, chosen }: ResolvedSet,
  entry: PluginEntry,
  pointId: string,
): Array<{ pluginId: string; declaration: unknown }> {
  const rank = (e: PluginEntry) => [SOURCE_RANK[e.candidate.source], order.indexOf(e.manifest!.id)] as const;
  const [ownRank, ownPlace] = rank(entry);
  return entries
    .filter((e) => e !== entry && chosen.has(e.key) && order.includes(e.manifest!.id))
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
