/** What the workspace's coherence is now: its status, its breakdown of edges, its current claims. */
import type { ReportProgress } from '@vmark/sdk';
import { breakdown, currentClaims, selectionFor, type CurrentClaimRow } from '../kernel/projection/index.js';
import { digestOf } from '../kernel/scan/index.js';
import type { LedgerState } from './caches/ledger-state.js';
import type { WorkspaceIndex } from './index/workspace-index.js';
import type { WorkspaceFiles } from './caches/workspace-files.js';
import { edgeRows, type McpEdgeRow } from './edge-rows.js';
import { IndexProgress } from './index-progress.js';
import type { ScanReconciler } from './scan-reconciler.js';
import { defaultContext } from './workspace-contexts.js';
import type { WorkspaceLedger } from './workspace-ledger.js';

export interface CoherenceStatus {
  readonly initialized: boolean;
  readonly objects: number;
  readonly open_items: number;
  readonly quarantined: number;
  readonly writer: string;
}

export class WorkspaceBreakdown {
  constructor(
    private readonly ledger: WorkspaceLedger,
    private readonly files: WorkspaceFiles,
    private readonly scan: ScanReconciler,
    private readonly derived: LedgerState,
    private readonly index: WorkspaceIndex,
  ) {}

  /** `progress` hears how far the walk and the ledger's reading have come (a first call reads every file). */
  async status(progress?: ReportProgress): Promise<CoherenceStatus> {
    const { writer, vmarkDir } = this.ledger;
    const indexing = new IndexProgress(progress);
    const walked = await this.files.walk(indexing);
    const ids = new Set(walked.files.flatMap((f) => digestOf(f)?.id ?? []));
    if (!(await this.ledger.initialized()))
      return { initialized: false, objects: ids.size, open_items: 0, quarantined: 0, writer };
    const ledger = await this.ledger.read(indexing.ledgerRead);
    const context = await defaultContext(vmarkDir);
    const open = breakdown(this.derived.edges(ledger, context)).filter(
      (r) => selectionFor(context, r.downstream) === 'live',
    );
    return {
      initialized: true,
      objects: ids.size,
      open_items: open.length,
      quarantined: ledger.quarantined,
      writer,
    };
  }

  /** Reconciles the files with the ledger (which may append), then lists the breakdown; see `status` for `progress`. */
  async edges(progress?: ReportProgress): Promise<McpEdgeRow[]> {
    const indexing = new IndexProgress(progress);
    const indexed = await this.index.answer(indexing);
    if (indexed !== null) return indexed;
    const ledger = await this.scan.reconcile(indexing);
    const context = await defaultContext(this.ledger.vmarkDir);
    const rows = edgeRows(this.derived.edges(ledger, context), this.scan.objectIndex(ledger), context);
    this.index.remember(rows, context, this.derived.until);
    return rows;
  }

  async claims(): Promise<readonly CurrentClaimRow[]> {
    return currentClaims((await this.ledger.read()).entries, await defaultContext(this.ledger.vmarkDir));
  }
}
