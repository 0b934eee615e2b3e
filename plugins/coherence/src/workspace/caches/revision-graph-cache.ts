import type { LedgerTailRead } from '../../kernel/ledger/index.js';
import { buildRevisionGraph, type RevisionGraph } from '../../kernel/projection/index.js';
import { Keyed } from './keyed.js';

/** The revision DAG of the ledger, shared by the object index and the projection; rebuilt when the ledger grows. */
export class RevisionGraphCache {
  readonly #graph = new Keyed<RevisionGraph>();

  for(ledger: LedgerTailRead): RevisionGraph {
    return this.#graph.get(String(ledger.version), () => buildRevisionGraph(ledger.entries));
  }
}
