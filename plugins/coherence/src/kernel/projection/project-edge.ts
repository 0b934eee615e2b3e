/**
 * Edge-state projection (vmark-notes §7.5; the original's `project.rs::project_edge`). Every
 * state is a pure function of the ledger, the viewing context and the current time: nothing
 * here records anything.
 */
import { compareEntries, compareInstants, isKind, parseTime, type LedgerEntry } from '../ledger/index.js';
import { buildClaimStore, claimsFingerprint } from './claims.js';
import { selectionFor, type ResolvedContext } from './contexts.js';
import { buildRevisionGraph, normUuid, type ProducedRevision, type RevisionGraph } from './revision-graph.js';

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
  const projection = new EdgeProjection(
    context,
    now,
    graph,
    claimsFingerprint(buildClaimStore(ordered), context.visibleClaims),
  );
  projection.append(ordered);
  return projection.rows();
}

/** Whether entries hold a claim, which may change the fingerprint an `EdgeProjection` was made under. */
export function changesClaims(entries: readonly LedgerEntry[]): boolean {
  return entries.some((e) => isKind(e, 'claim'));
}

/** What an edge's row is made from, kept so that the row can be projected again. */
interface EdgeSource {
  readonly key: string;
  readonly txf: string;
  readonly input: number;
  readonly upstream: string;
  readonly pinned: string;
  readonly kind: string;
  readonly confidence: string;
  readonly out: ProducedRevision;
}

/**
 * The projection kept up to date entry by entry (issue 18): entries are appended in ledger
 * order, after every entry appended before them, and only the rows they can change are
 * projected again — those whose upstream or downstream gained a revision, and those a new
 * resolution or check names. `projectEdges` is this fed every entry at once, so the two
 * cannot drift apart.
 */
export class EdgeProjection {
  readonly #contextId: string;
  readonly #sources: EdgeSource[] = [];
  #rows: EdgeRow[] = [];
  /** Row indexes by the object at either end, and by edge key. */
  readonly #byObject = new Map<string, number[]>();
  readonly #byKey = new Map<string, number[]>();
  readonly #resolutions = new Map<string, Resolution[]>();
  readonly #waiverCount = new Map<string, number>();
  readonly #checks = new Map<string, Check[]>();
  /** Every waiver's expiry in epoch ms (those with none or a malformed one left out). */
  readonly #expiries: number[] = [];
  #listed: readonly EdgeRow[] | undefined;

  /** `graph` must already hold every transformation appended (it is shared, e.g. with an object index). */
  constructor(
    readonly context: ResolvedContext,
    private now: Date,
    private readonly graph: RevisionGraph,
    /** The claims fingerprint of the ledger the entries come from, in `context`. */
    readonly fingerprint: string,
  ) {
    this.#contextId = normUuid(context.id);
  }

  /**
   * Adds entries sorting after all added so far. Claims are not looked at: the caller projects
   * anew when one arrives (`changesClaims`), since it changes what every check is judged under.
   */
  append(entries: readonly LedgerEntry[], now: Date = this.now): void {
    // Until the first waiver in force runs out, rows projected earlier stand at `now` too.
    const expired = now.getTime() >= this.until;
    this.now = now;
    const dirtyObjects = new Set<string>();
    const dirty = new Set<number>();
    const touchKey = (key: string) => {
      for (const i of this.#byKey.get(key) ?? []) dirty.add(i);
    };
    for (const entry of entries) {
      if (isKind(entry, 'ratification') || isKind(entry, 'waiver')) {
        const key = edgeKey(entry.body.edge.txf, entry.body.edge.input);
        const expires = entry.body.expires ?? null;
        push(this.#resolutions, key, {
          entry,
          kind: entry.kind,
          resolvedAgainst: entry.body.resolved_against,
          expires,
        });
        if (entry.kind === 'waiver') {
          this.#waiverCount.set(key, (this.#waiverCount.get(key) ?? 0) + 1);
          const at = expires === null ? undefined : parseTime(expires)?.epochMs;
          if (at !== undefined) this.#expiries.push(at);
        }
        touchKey(key);
      } else if (isKind(entry, 'check-result')) {
        const b = entry.body;
        // A result is live only under the exact (context, claims feed) snapshot it was made
        // in; anything else is history and is never consulted.
        if (normUuid(b.context) !== this.#contextId || b.claims_fingerprint !== this.fingerprint) continue;
        const key = edgeKey(b.edge.txf, b.edge.input);
        push(this.#checks, key, {
          entry,
          pinned: b.pinned,
          checkedAgainst: b.checked_against,
          verdict: b.verdict,
        });
        touchKey(key);
      } else if (isKind(entry, 'transformation')) {
        for (const out of entry.body.outputs) dirtyObjects.add(normUuid(out.object));
        const [out] = this.graph.producedBy(entry.id);
        if (!out) continue;
        entry.body.inputs.forEach((input, index) => {
          if (input.role !== 'direct') return;
          const i = this.#sources.length;
          const source: EdgeSource = {
            key: edgeKey(entry.id, index),
            txf: normUuid(entry.id),
            input: index,
            upstream: normUuid(input.object),
            pinned: input.revision,
            kind: input.kind ?? 'dependency',
            confidence: entry.body.confidence,
            out,
          };
          this.#sources.push(source);
          push(this.#byObject, source.upstream, i);
          if (out.object !== source.upstream) push(this.#byObject, out.object, i);
          push(this.#byKey, source.key, i);
          dirty.add(i);
        });
      }
    }
    if (expired) {
      this.reproject(now);
      return;
    }
    for (const object of dirtyObjects) for (const i of this.#byObject.get(object) ?? []) dirty.add(i);
    if (dirty.size === 0) return;
    // Internal rows only: what `rows()` handed out is a copy.
    for (const i of dirty) this.#rows[i] = this.#project(this.#sources[i] as EdgeSource);
    this.#listed = undefined;
  }

  /** Every row projected again at `now` (a waiver may have run out since). */
  reproject(now: Date): void {
    this.now = now;
    this.#rows = this.#sources.map((s) => this.#project(s));
    this.#listed = undefined;
  }

  /** When the first waiver still in force at the projection's time runs out, in epoch ms. */
  get until(): number {
    const now = this.now.getTime();
    let next = Infinity;
    for (const at of this.#expiries) if (at > now && at < next) next = at;
    return next;
  }

  /** The rows in ledger order then input order; a new array after each change, never mutated. */
  rows(): readonly EdgeRow[] {
    return (this.#listed ??= this.#rows.slice());
  }

  #project(s: EdgeSource): EdgeRow {
    const downstreamResolved = resolveObject(this.graph, this.context, s.out.object);
    const live = 'single' in downstreamResolved && downstreamResolved.single === s.out.revision;
    const state = edgeState({
      upstream: s.upstream,
      pinned: s.pinned,
      kind: s.kind,
      graph: this.graph,
      context: this.context,
      resolutions: this.#resolutions.get(s.key) ?? [],
      checks: this.#checks.get(s.key) ?? [],
      now: this.now,
    });
    return {
      txf: s.txf,
      input: s.input,
      upstream: s.upstream,
      pinned: s.pinned,
      downstream: s.out.object,
      downstream_rev: s.out.revision,
      state,
      kind: s.kind,
      confidence: s.confidence,
      prior_waivers: this.#waiverCount.get(s.key) ?? 0,
      live,
    };
  }
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
