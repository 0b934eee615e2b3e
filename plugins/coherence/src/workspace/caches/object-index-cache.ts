import type { LedgerTailRead } from '../../kernel/ledger/index.js';
import { buildObjectIndex, type ObjectIndex } from '../../kernel/scan/index.js';
import { Keyed } from './keyed.js';
import type { RevisionGraphCache } from './revision-graph-cache.js';

/** Which file each object is, from the ledger and the moves the scan has seen; rebuilt when either changes. */
export class ObjectIndexCache {
  readonly #index = new Keyed<ObjectIndex>();

  constructor(private readonly graphs: RevisionGraphCache) {}

  for(ledger: LedgerTailRead, observedPaths: ReadonlyMap<string, string>): ObjectIndex {
    const key = `${ledger.version}:${JSON.stringify([...observedPaths])}`;
    return this.#index.get(key, () =>
      buildObjectIndex(ledger.entries, { observedPaths, graph: this.graphs.for(ledger) }),
    );
  }
}
