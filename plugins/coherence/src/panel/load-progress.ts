import type { ReportProgress } from '@vmark/sdk';

/** How far a load has come, as the panel's page polls it (`progress`) while a first index build runs. */
export interface PanelProgress {
  readonly done: number;
  readonly total: number | null;
  /** Counts only, never a path or a text (IndexProgress). */
  readonly message: string;
}

/** The latest progress report of the load under way; null between loads. */
export class LoadProgress {
  #latest: PanelProgress | null = null;
  #loads = 0;

  get latest(): PanelProgress | null {
    return this.#latest;
  }

  /** Runs one load with `report` hearing its progress; what it reported goes when the last load ends. */
  async during<T>(load: (report: ReportProgress) => Promise<T>): Promise<T> {
    this.#loads += 1;
    try {
      return await load((done, total, message) => {
        if (message !== undefined) this.#latest = { done, total: total ?? null, message };
      });
    } finally {
      if (--this.#loads === 0) this.#latest = null;
    }
  }
}
