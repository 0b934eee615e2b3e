/*
 * A run's running-time budget (vmark-notes §4.4: 120 s): the time spent waiting for a person to
 * answer an approval does not count, so a run is never out of time because someone was slow to
 * decide.
 */

export const RUN_BUDGET_MS = 120_000;

export type Now = () => number;

export class RunClock {
  readonly #now: Now;
  readonly #budgetMs: number;
  #spent = 0;
  /** When the current running stretch began; null while a prompt is open or the run is over. */
  #since: number | null;

  constructor(budgetMs: number = RUN_BUDGET_MS, now: Now = Date.now) {
    this.#budgetMs = budgetMs;
    this.#now = now;
    this.#since = now();
  }

  /** A prompt opened: the clock stops until `resume`. */
  pause(): void {
    if (this.#since === null) return;
    this.#spent += this.#now() - this.#since;
    this.#since = null;
  }

  resume(): void {
    if (this.#since === null) this.#since = this.#now();
  }

  /** Running time used so far, in ms. */
  spent(): number {
    return this.#spent + (this.#since === null ? 0 : this.#now() - this.#since);
  }

  expired(): boolean {
    return this.spent() >= this.#budgetMs;
  }
}
