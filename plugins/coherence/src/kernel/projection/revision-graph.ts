/**
 * Per-object revision DAG built from `transformation` outputs (vmark-notes §7.2, §7.5).
 * Heads are per object, never a global "latest": a live selection over an object with two
 * heads has no single revision, and that is surfaced rather than guessed.
 */
import { compareEntries, isKind, type LedgerEntry } from '../ledger/index.js';

export interface ProducedRevision {
  readonly object: string;
  readonly revision: string;
}

export interface RevisionGraph {
  /** Revisions recorded for `object`, sorted; empty when the object is unknown. */
  revisions(object: string): readonly string[];
  has(object: string, revision: string): boolean;
  /** Parent links of one revision; `undefined` when it was never recorded. */
  parentsOf(object: string, revision: string): readonly string[] | undefined;
  /** Recorded revisions no other revision of the object names as a parent, sorted. */
  heads(object: string): readonly string[];
  /** `ancestor` is reachable from `descendant` over parent links; never reflexive. */
  isStrictAncestor(object: string, ancestor: string, descendant: string): boolean;
  /** The outputs (in body order) of the transformation entry `txf`: the downstream `w`. */
  producedBy(txf: string): readonly ProducedRevision[];
}

/** UUIDs are compared as values; the ledger may carry either hex case. */
export const normUuid = (id: string): string => id.toLowerCase();

export function buildRevisionGraph(entries: readonly LedgerEntry[]): RevisionGraph {
  const parents = new Map<string, Map<string, readonly string[]>>();
  const nonHeads = new Map<string, Set<string>>();
  const produced = new Map<string, ProducedRevision[]>();
  for (const entry of [...entries].sort(compareEntries)) {
    if (!isKind(entry, 'transformation')) continue;
    const outs: ProducedRevision[] = [];
    for (const out of entry.body.outputs) {
      const object = normUuid(out.object);
      let named = nonHeads.get(object);
      if (!named) nonHeads.set(object, (named = new Set<string>()));
      for (const p of out.parents) named.add(p);
      let revs = parents.get(object);
      if (!revs) parents.set(object, (revs = new Map<string, readonly string[]>()));
      // The first record of a revision wins, so replaying an entry changes nothing (as the
      // original's `or_insert`); a revision id already commits to its parents anyway.
      if (!revs.has(out.revision)) revs.set(out.revision, [...out.parents]);
      outs.push({ object, revision: out.revision });
    }
    const txf = normUuid(entry.id);
    if (!produced.has(txf)) produced.set(txf, outs);
  }

  // Asked once per edge end: worked out once per object.
  const headsOf = new Map<string, readonly string[]>();
  const heads = (object: string): readonly string[] => {
    const key = normUuid(object);
    let found = headsOf.get(key);
    if (found === undefined) {
      const named = nonHeads.get(key) ?? new Set<string>();
      found = [...(parents.get(key)?.keys() ?? [])].filter((r) => !named.has(r)).sort();
      headsOf.set(key, found);
    }
    return found;
  };

  const isStrictAncestor = (object: string, ancestor: string, descendant: string): boolean => {
    if (ancestor === descendant) return false;
    const revs = parents.get(normUuid(object));
    if (!revs) return false;
    // BFS bounded by the object's revision count: each revision is queued at most once.
    const seen = new Set<string>([descendant]);
    const queue: string[] = [descendant];
    for (let i = 0; i < queue.length; i++) {
      const current = queue[i];
      if (current === undefined) break;
      for (const p of revs.get(current) ?? []) {
        if (p === ancestor) return true;
        if (!seen.has(p)) {
          seen.add(p);
          queue.push(p);
        }
      }
    }
    return false;
  };

  return {
    revisions: (object) => [...(parents.get(normUuid(object))?.keys() ?? [])].sort(),
    has: (object, revision) => parents.get(normUuid(object))?.has(revision) ?? false,
    parentsOf: (object, revision) => parents.get(normUuid(object))?.get(revision),
    heads,
    isStrictAncestor,
    producedBy: (txf) => produced.get(normUuid(txf)) ?? [],
  };
}
