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
  const graph = new RevisionGraphBuilder();
  for (const entry of [...entries].sort(compareEntries)) graph.add(entry);
  return graph;
}

/**
 * The revision DAG grown entry by entry, fed in ledger order (an incremental reader adds what
 * was appended): the same graph `buildRevisionGraph` makes of all the entries at once.
 */
export class RevisionGraphBuilder implements RevisionGraph {
  readonly #parents = new Map<string, Map<string, readonly string[]>>();
  readonly #nonHeads = new Map<string, Set<string>>();
  readonly #produced = new Map<string, ProducedRevision[]>();
  // Asked once per edge end: worked out once per object, until the object gains a revision.
  readonly #headsOf = new Map<string, readonly string[]>();

  /** Adds a transformation's outputs (other kinds add nothing); returns the objects it touched. */
  add(entry: LedgerEntry): readonly string[] {
    if (!isKind(entry, 'transformation')) return [];
    const outs: ProducedRevision[] = [];
    for (const out of entry.body.outputs) {
      const object = normUuid(out.object);
      let named = this.#nonHeads.get(object);
      if (!named) this.#nonHeads.set(object, (named = new Set<string>()));
      for (const p of out.parents) named.add(p);
      let revs = this.#parents.get(object);
      if (!revs) this.#parents.set(object, (revs = new Map<string, readonly string[]>()));
      // The first record of a revision wins, so replaying an entry changes nothing (as the
      // original's `or_insert`); a revision id already commits to its parents anyway.
      if (!revs.has(out.revision)) revs.set(out.revision, [...out.parents]);
      this.#headsOf.delete(object);
      outs.push({ object, revision: out.revision });
    }
    const txf = normUuid(entry.id);
    if (!this.#produced.has(txf)) this.#produced.set(txf, outs);
    return outs.map((o) => o.object);
  }

  revisions(object: string): readonly string[] {
    return [...(this.#parents.get(normUuid(object))?.keys() ?? [])].sort();
  }

  has(object: string, revision: string): boolean {
    return this.#parents.get(normUuid(object))?.has(revision) ?? false;
  }

  parentsOf(object: string, revision: string): readonly string[] | undefined {
    return this.#parents.get(normUuid(object))?.get(revision);
  }

  heads(object: string): readonly string[] {
    const key = normUuid(object);
    let found = this.#headsOf.get(key);
    if (found === undefined) {
      const named = this.#nonHeads.get(key) ?? new Set<string>();
      found = [...(this.#parents.get(key)?.keys() ?? [])].filter((r) => !named.has(r)).sort();
      this.#headsOf.set(key, found);
    }
    return found;
  }

  isStrictAncestor(object: string, ancestor: string, descendant: string): boolean {
    if (ancestor === descendant) return false;
    const revs = this.#parents.get(normUuid(object));
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
  }

  producedBy(txf: string): readonly ProducedRevision[] {
    return this.#produced.get(normUuid(txf)) ?? [];
  }
}
