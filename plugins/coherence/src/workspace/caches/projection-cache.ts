import { isKind, parseTime, type LedgerEntry, type LedgerTailRead } from '../../kernel/ledger/index.js';
import { projectEdges, type EdgeRow, type ResolvedContext } from '../../kernel/projection/index.js';
import { Keyed } from './keyed.js';
import type { RevisionGraphCache } from './revision-graph-cache.js';

interface Projection {
  readonly rows: readonly EdgeRow[];
  /** When the first waiver still in force runs out, in epoch ms. */
  readonly until: number;
}

/** Every edge projected in a context; kept until the ledger, the context or a waiver's expiry changes it. */
export class ProjectionCache {
  readonly #projection = new Keyed<Projection>();

  constructor(
    private readonly graphs: RevisionGraphCache,
    private readonly now: () => Date,
  ) {}

  for(ledger: LedgerTailRead, context: ResolvedContext): readonly EdgeRow[] {
    const now = this.now();
    const key = `${ledger.version}:${contextKey(context)}`;
    return this.#projection.get(
      key,
      () => ({
        rows: projectEdges(ledger.entries, context, now, this.graphs.for(ledger)),
        until: nextExpiry(ledger.entries, now),
      }),
      (kept) => now.getTime() < kept.until,
    ).rows;
  }
}

function contextKey(context: ResolvedContext): string {
  return JSON.stringify([context.id, [...context.selections], context.visibleClaims, context.enforcement]);
}

/** When the first waiver still in force runs out: a projection made now is right until then. */
function nextExpiry(entries: readonly LedgerEntry[], now: Date): number {
  let next = Infinity;
  for (const entry of entries) {
    if (!isKind(entry, 'waiver') || entry.body.expires == null) continue;
    const at = parseTime(entry.body.expires)?.epochMs;
    if (at !== undefined && at > now.getTime() && at < next) next = at;
  }
  return next;
}
