import type { LedgerTailRead } from '../../kernel/ledger/index.js';
import {
  buildClaimStore,
  changesClaims,
  claimsFingerprint,
  EdgeProjection,
  RevisionGraphBuilder,
  type EdgeRow,
  type ResolvedContext,
} from '../../kernel/projection/index.js';
import { ObjectIndexBuilder, type ObjectIndex } from '../../kernel/scan/index.js';
import { Keyed } from './keyed.js';

/**
 * What the workspace derives from its ledger — the revision DAG, the object index, the edges
 * projected in a context — grown with each append the `LedgerTail` reports (an edit seen by a
 * scan re-projects only the edges touching that object), and made anew when the ledger
 * changed in any other way (a rewritten segment, entries sorting before ones already read).
 */
export class LedgerState {
  #version: number | undefined;
  #entries: LedgerTailRead['entries'] = [];
  #graph = new RevisionGraphBuilder();
  #objects = new ObjectIndexBuilder(this.#graph);
  #projection: { readonly key: string; readonly edges: EdgeProjection } | undefined;
  readonly #index = new Keyed<ObjectIndex>();
  /** Every entry's idem: what a scan need not append again. */
  #idems = new Set<string>();

  constructor(private readonly now: () => Date) {}

  /** Which file each object is, by `ledger` and the moves seen since. */
  objectIndex(ledger: LedgerTailRead, observedPaths: ReadonlyMap<string, string>): ObjectIndex {
    this.#sync(ledger);
    const key = `${ledger.version}:${JSON.stringify([...observedPaths])}`;
    return this.#index.get(key, () => this.#objects.index(observedPaths));
  }

  /** The idems of `ledger`'s entries. */
  idems(ledger: LedgerTailRead): ReadonlySet<string> {
    this.#sync(ledger);
    return this.#idems;
  }

  /** Every edge of `ledger` projected in `context` now. */
  edges(ledger: LedgerTailRead, context: ResolvedContext): readonly EdgeRow[] {
    this.#sync(ledger);
    const now = this.now();
    const key = contextKey(context);
    const held = this.#projection;
    if (held?.key !== key) {
      const fingerprint = claimsFingerprint(buildClaimStore(this.#entries), context.visibleClaims);
      const edges = new EdgeProjection(context, now, this.#graph, fingerprint);
      edges.append(this.#entries);
      this.#projection = { key, edges };
      return edges.rows();
    }
    // A waiver ran out since: every row is judged again at this time.
    if (now.getTime() >= held.edges.until) held.edges.reproject(now);
    return held.edges.rows();
  }

  /**
   * Hears every read of the ledger (`WorkspaceLedger.onRead`), so that an append read by a
   * capture is grown into what is derived, not missed until a full rebuild; anything other
   * than the next append is left to the next question.
   */
  follow(ledger: LedgerTailRead): void {
    const appended = ledger.appended;
    if (this.#version === undefined || appended?.after !== this.#version) return;
    for (const entry of appended.entries) {
      this.#graph.add(entry);
      this.#idems.add(entry.idem);
    }
    this.#objects.append(appended.entries);
    if (this.#projection !== undefined) {
      if (changesClaims(appended.entries)) this.#projection = undefined;
      else this.#projection.edges.append(appended.entries, this.now());
    }
    this.#entries = ledger.entries;
    this.#version = ledger.version;
  }

  /** When the first waiver in force in the last projection runs out (epoch ms; Infinity when none). */
  get until(): number {
    return this.#projection?.edges.until ?? Infinity;
  }

  #sync(ledger: LedgerTailRead): void {
    if (ledger.version === this.#version) return;
    this.follow(ledger);
    if (ledger.version === this.#version) return;
    this.#graph = new RevisionGraphBuilder();
    for (const entry of ledger.entries) this.#graph.add(entry);
    this.#idems = new Set(ledger.entries.map((e) => e.idem));
    this.#objects = new ObjectIndexBuilder(this.#graph);
    this.#objects.append(ledger.entries);
    this.#projection = undefined;
    this.#entries = ledger.entries;
    this.#version = ledger.version;
  }
}

/** What identifies a resolved context's effect on the projection. */
export function contextKey(context: ResolvedContext): string {
  return JSON.stringify([context.id, [...context.selections], context.visibleClaims, context.enforcement]);
}
