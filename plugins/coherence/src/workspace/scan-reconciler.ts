import type { LedgerTailRead } from '../kernel/ledger/index.js';
import { readGitState, scanWorkspace, type ObjectIndex, type WalkResult } from '../kernel/scan/index.js';
import type { LedgerState } from './caches/ledger-state.js';
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
  /** The git state (JSON) the last reconciliation looked at. */
  #git = 'null';

  constructor(
    private readonly ledger: WorkspaceLedger,
    private readonly files: WorkspaceFiles,
    private readonly derived: LedgerState,
  ) {}

  /** Reconciles, which may append; skipped when neither files, ledger nor HEAD moved. */
  async reconcile(indexing: IndexProgress): Promise<LedgerTailRead> {
    const { root, vmarkDir, writer } = this.ledger;
    const walked = await this.files.walk(indexing);
    let ledger = await this.ledger.read(indexing.ledgerRead);
    const git = await readGitState(root);
    this.#git = JSON.stringify(git);
    const head = git?.head ?? null;
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
    // A move is remembered only while a walk still sees the object there, alone: once it is
    // gone (or hidden, or duplicated) a new process, which knows only the ledger's path, could
    // not know where it went, and both must answer alike.
    for (const object of [...scan.absent.map((a) => a.object), ...scan.unverified, ...scan.held])
      this.#observedPaths.delete(object);
    this.#lastHead = scan.head;
    if (scan.appended > 0) ledger = await this.ledger.read();
    this.#reconciled = { walk: walked, key: `${ledger.version}:${scan.head}` };
    return ledger;
  }

  /** Which file each object is, by the ledger and the moves seen so far. */
  objectIndex(ledger: LedgerTailRead): ObjectIndex {
    return this.derived.objectIndex(ledger, this.#observedPaths);
  }

  /** What the scan remembers besides the ledger, for the on-disk index. */
  memory(): { git: string; lastHead: string | null; observedPaths: [string, string][] } {
    return { git: this.#git, lastHead: this.#lastHead, observedPaths: [...this.#observedPaths] };
  }

  /** Takes over the memory of the process that wrote a sound index of this very ledger. */
  restore(memory: {
    readonly lastHead: string | null;
    readonly observedPaths: readonly (readonly [string, string])[];
  }): void {
    this.#lastHead = memory.lastHead;
    this.#observedPaths.clear();
    for (const [object, path] of memory.observedPaths) this.#observedPaths.set(object, path);
  }

  /** After a capture: the first one tells the next scan where HEAD stood. */
  async captured(): Promise<void> {
    this.#lastHead ??= (await readGitState(this.ledger.root))?.head ?? null;
  }
}
