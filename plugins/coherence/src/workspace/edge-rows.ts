/**
 * The MCP shape of the breakdown (vmark-notes §7.6 EdgeRow): the projection's live, non-fresh
 * edges with the last known path of each end.
 */
import { breakdown, selectionFor, type EdgeRow, type ResolvedContext } from '../kernel/projection/index.js';
import type { ObjectIndex } from '../kernel/scan/index.js';

export interface McpEdgeRow {
  readonly txf: string;
  readonly input: number;
  readonly upstream: string;
  readonly upstream_path: string | null;
  readonly pinned: string;
  readonly downstream: string;
  readonly downstream_path: string | null;
  readonly downstream_rev: string;
  readonly confidence: string;
  readonly state: string;
  readonly prior_waivers: number;
  readonly kind: string;
  /** The context pins the downstream: nobody is expected to revise it. */
  readonly frozen_downstream: boolean;
  /** Accept-newer and waive apply (not to multi-head or unresolvable upstreams). */
  readonly actionable: boolean;
}

const UNACTIONABLE = new Set(['diverged-multi-head', 'unpinnable']);

export function edgeRows(
  rows: readonly EdgeRow[],
  objects: ObjectIndex,
  context: ResolvedContext,
): McpEdgeRow[] {
  return breakdown(rows).map((r) => ({
    txf: r.txf,
    input: r.input,
    upstream: r.upstream,
    upstream_path: objects.get(r.upstream)?.path ?? null,
    pinned: r.pinned,
    downstream: r.downstream,
    downstream_path: objects.get(r.downstream)?.path ?? null,
    downstream_rev: r.downstream_rev,
    confidence: r.confidence,
    state: r.state,
    prior_waivers: r.prior_waivers,
    kind: r.kind,
    frozen_downstream: selectionFor(context, r.downstream) !== 'live',
    actionable: !UNACTIONABLE.has(r.state),
  }));
}
