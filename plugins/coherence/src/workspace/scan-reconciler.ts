import type { LedgerTailRead } from '../kernel/ledger/index.js';
import { readGitState, scanWorkspace, type ObjectIndex, type WalkResult } from '../kernel/scan/index.js';
import type { ObjectIndexCache } from './caches/object-index-cache.js';
import type { WorkspaceFiles } from './caches/workspace-files.js';
import type { IndexProgress } from './index-progress.js';
import type { WorkspaceLedger } from './workspace-ledger.js';

/**
 * Scan reconciliation (vmark-notes §7.6): brings the ledger in line with the files, and keeps
 * what the scan learns that is not a ledger entry (moves seen, HEAD) for the next scan.
 */
export class ScanReconciler {
  /** Moves the scan has seen (index updates, never ledger entries), by object id. */
  readonly #observedPaths = new Map<string, string>();
  /** HEAD as the last scan or capture saw it: how the next scan tells a checkout from an edit. */
  #lastHead: string | null = null;
  /** The walk, ledger version and HEAD the last scan left reconciled. */
  #reconciled: { walk: WalkResult; key: string } | undefined;

  constructor(
    private readonly ledger: WorkspaceLedger,
    private readonly files: WorkspaceFiles,
    private readonly objects: ObjectIndexCache,
  ) {}

  /** Reconciles, which may append; skipped when neither files, ledger nor HEAD moved. */
  async reconcile(indexing: IndexProgress): Promise<LedgerTailRead> {
    const { root, vmarkDir, writer } = this.ledger;
    const walked = await this.files.walk(indexing);
    let ledger = await this.ledger.read(indexing.ledgerRead);
    const head = (await readGitState(root))?.head ?? null;
    if (this.#reconciled?.walk === walked && this.#reconciled.key === `${ledger.version}:${head}`)
      return ledger;
    const scan = await scanWorkspace(root, vmarkDir, writer, {
      ...this.ledger.factory,
      ledger,
      known: this.objectIndex(ledger),
      walked,
      observedPaths: this.#observedPaths,
      lastHead: this.#lastHead,
      onAppended: indexing.recorded,
    });
    for (const move of scan.moves) this.#observedPaths.set(move.object, move.to);
    this.#lastHead = scan.head;
    if (scan.appended > 0) ledger = await this.ledger.read();
    this.#reconciled = { walk: walked, key: `${ledger.version}:${scan.head}` };
    return ledger;
  }

  /** Which file each object is, by the ledger and the moves seen so far. */
  objectIndex(ledger: LedgerTailRead): ObjectIndex {
    return this.objects.for(ledger, this.#observedPaths);
  }

  /** After a capture: the first one tells the next scan where HEAD stood. */
  async captured(): Promise<void> {
    this.#lastHead ??= (await readGitState(this.ledger.root))?.head ?? null;
  }
}
