import type { ReportProgress } from '@vmark/sdk';

/**
 * What a coherence call that indexes the workspace reports (a first call on a large vault takes
 * seconds): the Markdown files read, then the ledger's segments read, then the observations a scan
 * appends, as one rising count out of the files plus two steps (the ledger, the scan). The
 * messages hold counts only, never a path or a text.
 */
export class IndexProgress {
  #files = 0;

  constructor(private readonly report: ReportProgress = () => undefined) {}

  /** A workspace walk's `onProgress`. */
  readonly filesRead = (done: number, total: number): void => {
    this.#files = total;
    this.report(done, total + 2, `read ${done} of ${total} Markdown files`);
  };

  /** A ledger refresh's `onSegment`. */
  readonly ledgerRead = (done: number, total: number): void => {
    this.report(this.#files + done / total, this.#files + 2, `read ${done} of ${total} ledger segments`);
  };

  /** A scan's `onAppended`. */
  readonly recorded = (done: number, total: number): void => {
    this.report(
      this.#files + 1 + done / total,
      this.#files + 2,
      `recorded ${done} of ${total} observations in the ledger`,
    );
  };
}
