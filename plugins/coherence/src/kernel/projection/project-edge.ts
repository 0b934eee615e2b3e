/**
 * Edge-state projection (vmark-notes §7.5; the original's `project.rs::project_edge`). Every
 * state is a pure function of the ledger, the viewing context and the current time: nothing
 * here records anything.
 */
import { compareEntries, compareInstants, isKind, parseTime, type LedgerEntry } from '../ledger/index.js';
import { buildClaimStore, claimsFingerprint } from './claims.js';
import { selectionFor, type ResolvedContext } from './contexts.js';
import { buildRevisionGraph, normUuid, type RevisionGraph } from './revision-graph.js';

export const EDGE_STATES = [
  'fresh',
  'fresh-ratified',
  'fresh-ahead',
  'version-stale',
  'stale-valid',
  'stale-contradicted',
  'stale-unknown',
  'waived',
  'diverged',
  'diverged-multi-head',
  'unpinnable',
] as const;

export type EdgeState = (typeof EDGE_STATES)[number];

/** States the breakdown leaves out: nothing for anyone to do. */
export const FRESH_STATES: ReadonlySet<EdgeState> = new Set(['fresh', 'fresh-ratified', 'fresh-ahead']);

export interface EdgeRow {
  readonly txf: string;
  readonly input: number;
  readonly upstream: string;
  readonly pinned: string;
  readonly downstream: string;
  readonly downstream_rev: string;
  readonly state: EdgeState;
  readonly kind: string;
  /** Provenance confidence of the transformation that recorded the edge. */
  readonly confidence: string;
  /** Every waiver ever written for this edge, whatever it resolved against. */
  readonly prior_waivers: number;
  /** The context selects the downstream revision this edge was recorded for. */
  readonly live: boolean;
}

/** Outcome of resolving one object in a context. */
export type Resolved =
  { readonly single: string } | { readonly unresolved: 'diverged-heads' | 'unknown-pin' | 'absent' };

export function resolveObject(graph: RevisionGraph, context: ResolvedContext, object: string): Resolved {
  const selection = selectionFor(context, object);
  if (selection !== 'live') {
    // A pin the object never had is surfaced, never replaced by a guess.
    return graph.has(object, selection) ? { single: selection } : { unresolved: 'unknown-pin' };
  }
  const heads = graph.heads(object);
  const [only] = heads;
  if (only === undefined) return { unresolved: 'absent' };
  return heads.length === 1 ? { single: only } : { unresolved: 'diverged-heads' };
}

interface Resolution {
  readonly entry: LedgerEntry;
  readonly kind: 'ratification' | 'waiver';
  readonly resolvedAgainst: string;
  readonly expires: string | null;
}

interface Check {
  readonly entry: LedgerEntry;
  readonly pinned: string;
  readonly checkedAgainst: string;
  readonly verdict: 'no-contradiction' | 'contradiction' | 'unknown';
}

const edgeKey = (txf: string, input: number): string => `${normUuid(txf)}#${input}`;

function push<T>(map: Map<string, T[]>, key: string, value: T): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** Latest by the ledger's total order (time, id). */
function latest<T extends { readonly entry: LedgerEntry }>(items: readonly T[]): T | undefined {
  let best: T | undefined;
  for (const item of items) if (!best || compareEntries(item.entry, best.entry) > 0) best = item;
  return best;
}

/** A malformed expiry deactivates the waiver: the edge reopens rather than staying hidden. */
function waiverActive(expires: string | null, now: Date): boolean {
  if (expires === null) return true;
  const at = parseTime(expires);
  if (!at) return false;
  return compareInstants(at, { epochMs: now.getTime(), subMsNanos: 0 }) > 0;
}

/**
 * Projects every edge — each `direct` input of each transformation, toward its first output —
 * in `context` at `now`, in ledger order then input order. Rows that are not live are kept
 * (with `live: false`) so a caller can show retired edges; `breakdown` drops them. A caller
 * that keeps the revision graph of these very entries may pass it instead of having it rebuilt.
 */
export function projectEdges(
  entries: readonly LedgerEntry[],
  context: ResolvedContext,
  now: Date,
  graph: RevisionGraph = buildRevisionGraph(entries),
): readonly EdgeRow[] {
  const ordered = [...entries].sort(compareEntries);
  const fingerprint = claimsFingerprint(buildClaimStore(ordered), context.visibleClaims);
  const contextId = normUuid(context.id);

  const resolutions = new Map<string, Resolution[]>();
  const waiverCount = new Map<string, number>();
  const checks = new Map<string, Check[]>();
  for (const entry of ordered) {
    if (isKind(entry, 'ratification') || isKind(entry, 'waiver')) {
      const key = edgeKey(entry.body.edge.txf, entry.body.edge.input);
      push(resolutions, key, {
        entry,
        kind: entry.kind,
        resolvedAgainst: entry.body.resolved_against,
        expires: entry.body.expires ?? null,
      });
      if (entry.kind === 'waiver') waiverCount.set(key, (waiverCount.get(key) ?? 0) + 1);
    } else if (isKind(entry, 'check-result')) {
      const b = entry.body;
      // A result is live only under the exact (context, claims feed) snapshot it was made
      // in; anything else is history and is never consulted.
      if (normUuid(b.context) !== contextId || b.claims_fingerprint !== fingerprint) continue;
      push(checks, edgeKey(b.edge.txf, b.edge.input), {
        entry,
        pinned: b.pinned,
        checkedAgainst: b.checked_against,
        verdict: b.verdict,
      });
    }
  }

  const rows: EdgeRow[] = [];
  for (const entry of ordered) {
    if (!isKind(entry, 'transformation')) continue;
    const [out] = graph.producedBy(entry.id);
    if (!out) continue;
    const downstreamResolved = resolveObject(graph, context, out.object);
    const live = 'single' in downstreamResolved && downstreamResolved.single === out.revision;
    entry.body.inputs.forEach((input, index) => {
      if (input.role !== 'direct') return;
      const key = edgeKey(entry.id, index);
      const kind = input.kind ?? 'dependency';
      const state = edgeState({
        upstream: normUuid(input.object),
        pinned: input.revision,
        kind,
        graph,
        context,
        resolutions: resolutions.get(key) ?? [],
        checks: checks.get(key) ?? [],
        now,
      });
      rows.push({
        txf: normUuid(entry.id),
        input: index,
        upstream: normUuid(input.object),
        pinned: input.revision,
        downstream: out.object,
        downstream_rev: out.revision,
        state,
        kind,
        confidence: entry.body.confidence,
        prior_waivers: waiverCount.get(key) ?? 0,
        live,
      });
    });
  }
  return rows;
}

interface EdgeFacts {
  readonly upstream: string;
  readonly pinned: string;
  readonly kind: string;
  readonly graph: RevisionGraph;
  readonly context: ResolvedContext;
  /** Ratifications and waivers of this edge. */
  readonly resolutions: readonly Resolution[];
  /** Live check-results of this edge (already filtered by context and claims feed). */
  readonly checks: readonly Check[];
  readonly now: Date;
}

/** Steps 2–8 of §7.5; step 1 (role and liveness) is the caller's. */
function edgeState(f: EdgeFacts): EdgeState {
  const resolved = resolveObject(f.graph, f.context, f.upstream);
  if (!('single' in resolved)) {
    return resolved.unresolved === 'diverged-heads' ? 'diverged-multi-head' : 'unpinnable';
  }
  const sel = resolved.single;
  // Inert kinds are visible but never go stale; structural problems above still surface.
  if (f.kind !== 'dependency') return 'fresh';
  const resolution = latest(f.resolutions.filter((r) => r.resolvedAgainst === sel));
  if (resolution?.kind === 'ratification') return 'fresh-ratified';
  if (resolution?.kind === 'waiver' && waiverActive(resolution.expires, f.now)) return 'waived';
  // An expired waiver falls through to the version axis; an older record does not revive.
  if (f.pinned === sel) return 'fresh';
  if (f.graph.isStrictAncestor(f.upstream, f.pinned, sel)) {
    const check = latest(f.checks.filter((c) => c.pinned === f.pinned && c.checkedAgainst === sel));
    if (!check) return 'version-stale';
    if (check.verdict === 'no-contradiction') return 'stale-valid';
    return check.verdict === 'contradiction' ? 'stale-contradicted' : 'stale-unknown';
  }
  if (f.graph.isStrictAncestor(f.upstream, sel, f.pinned)) return 'fresh-ahead';
  return 'diverged';
}

/**
 * The breakdown: live edges that need attention (every state except the three fresh ones),
 * in projection order, which is the ledger's total order and then input index — stable for
 * a given ledger whatever order its segments were read in.
 */
export function breakdown(rows: readonly EdgeRow[]): readonly EdgeRow[] {
  return rows.filter((r) => r.live && !FRESH_STATES.has(r.state));
}
