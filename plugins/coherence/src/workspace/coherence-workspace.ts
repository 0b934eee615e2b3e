/**
 * One workspace's coherence state, for the tools and the terminal: the coordinator of the parts
 * below. Every operation runs in turn (reads see every capture queued before them); the ledger
 * on disk is the only truth, and what the caches keep in memory is rebuilt by the next scan.
 */
import type { ReportProgress } from '@vmark/sdk';
import { SerialQueue } from '@vmark/sdk';
import type { CurrentClaimRow } from '../kernel/projection/index.js';
import type { CaptureRequest } from '../capture/plan-capture.js';
import type { GrantRecord } from '../delegation/grant-record.js';
import type { ResolveReceipt, ResolveRequest } from '../resolution/resolve-edge.js';
import type { SweepThread } from '../kernel/scan/index.js';
import { LedgerState } from './caches/ledger-state.js';
import { WorkspaceIndex } from './index/workspace-index.js';
import { WorkspaceFiles } from './caches/workspace-files.js';
import { CaptureBatcher } from './capture-batcher.js';
import type { McpEdgeRow } from './edge-rows.js';
import { ScanReconciler } from './scan-reconciler.js';
import { WorkspaceBreakdown, type CoherenceStatus } from './workspace-breakdown.js';
import { contextRows, type ContextRow } from './workspace-contexts.js';
import { WorkspaceDelegations, type DelegateRequest, type ListedGrant } from './workspace-delegations.js';
import { systemClock, WorkspaceLedger, type Clock } from './workspace-ledger.js';
import { resolveEdge } from './workspace-resolution.js';

export class CoherenceWorkspace {
  readonly vmarkDir: string;
  readonly #ledger: WorkspaceLedger;
  readonly #files: WorkspaceFiles;
  readonly #breakdown: WorkspaceBreakdown;
  readonly #captures: CaptureBatcher;
  readonly #delegations: WorkspaceDelegations;
  readonly #queue = new SerialQueue();
  readonly #index: WorkspaceIndex;

  constructor(
    readonly root: string,
    readonly writer: string,
    /** The person's record of their grants, in `$VMARK_HOME` (ADR 23). */
    private readonly grants: GrantRecord,
    clock: Clock = systemClock,
    /** The helper thread of large walks' signature sweeps (ADR 82); tests give one that takes small walks too. */
    sweeper?: SweepThread,
  ) {
    const ledger = (this.#ledger = new WorkspaceLedger(root, writer, clock));
    this.vmarkDir = ledger.vmarkDir;
    const files = (this.#files = new WorkspaceFiles(root, ledger.vmarkDir, sweeper));
    const derived = new LedgerState(clock.now);
    ledger.onRead((read) => derived.follow(read));
    const scan = new ScanReconciler(ledger, files, derived);
    this.#index = new WorkspaceIndex(ledger, files, scan, clock.now);
    this.#breakdown = new WorkspaceBreakdown(ledger, files, scan, derived, this.#index);
    this.#captures = new CaptureBatcher(ledger, files, scan, (task) => this.#exclusive(task));
    this.#delegations = new WorkspaceDelegations(ledger, grants);
  }

  dispose(): void {
    this.#files.dispose();
  }

  /** How many walks of the files were whole and how many re-checked changed paths only (ADR 59). */
  get walks(): { readonly whole: number; readonly changes: number } {
    return this.#files.walks;
  }

  /** Writes the on-disk index of the last answer, if one is waiting (ADR 46). */
  flush(): Promise<void> {
    return this.#index.flush();
  }

  /** Runs `task` after every operation queued before it. */
  #exclusive<T>(task: () => Promise<T>): Promise<T> {
    return this.#queue.run(task);
  }

  initialized(): Promise<boolean> {
    return this.#ledger.initialized();
  }

  /** `progress` hears how far the walk and the ledger's reading have come (a first call reads every file). */
  status(progress?: ReportProgress): Promise<CoherenceStatus> {
    return this.#exclusive(() => this.#breakdown.status(progress));
  }

  /** Reconciles the files with the ledger (which may append), then lists the breakdown; see `status` for `progress`. */
  edges(progress?: ReportProgress): Promise<McpEdgeRow[]> {
    return this.#exclusive(() => this.#breakdown.edges(progress));
  }

  claims(): Promise<readonly CurrentClaimRow[]> {
    return this.#exclusive(() => this.#breakdown.claims());
  }

  contexts(): Promise<ContextRow[]> {
    return this.#exclusive(() => contextRows(this.vmarkDir));
  }

  resolve(principal: string | null, request: ResolveRequest): Promise<ResolveReceipt> {
    return this.#exclusive(() => resolveEdge(this.#ledger, this.grants, principal, request));
  }

  /** Records one write, batched with the writes that arrive while a capture runs (see `CaptureBatcher`). */
  capture(request: CaptureRequest): Promise<number> {
    return this.#captures.capture(request);
  }

  delegations(): Promise<readonly ListedGrant[]> {
    return this.#exclusive(() => this.#delegations.list());
  }

  /** A person's grant (`vmark coherence delegate`); the caller checks the person is at a terminal. */
  delegate(request: DelegateRequest): Promise<{ grant: string; entryId: string }> {
    return this.#exclusive(() => this.#delegations.delegate(request));
  }

  /** Revokes a grant live in the person's record or the ledger; null when neither knows it. */
  revoke(grantId: string, actor: string): Promise<{ grant: string; entryId: string | null } | null> {
    return this.#exclusive(() => this.#delegations.revoke(grantId, actor));
  }
}
