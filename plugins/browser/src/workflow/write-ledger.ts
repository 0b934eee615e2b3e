/*
 * The completed-write ledger (vmark-notes §4.4): which write steps of a workflow, run with which
 * inputs on which tab, have already succeeded in this session — so that a re-run after a pause
 * skips them instead of submitting a form twice (unless the run says `allowRepeat`). In memory
 * only: it lasts as long as the host, as the tabs it is about do.
 */

export class WriteLedger {
  /** `(tabId, ledgerId)` → the step indices whose write succeeded. */
  readonly #done = new Map<string, Set<number>>();

  has(tabId: string, ledgerId: string, stepIndex: number): boolean {
    return this.#done.get(keyOf(tabId, ledgerId))?.has(stepIndex) ?? false;
  }

  record(tabId: string, ledgerId: string, stepIndex: number): void {
    const key = keyOf(tabId, ledgerId);
    const steps = this.#done.get(key) ?? new Set<number>();
    steps.add(stepIndex);
    this.#done.set(key, steps);
  }

  /** A closed tab's entries: its id is never given out again, so nothing could ever skip by them. */
  forgetTab(tabId: string): void {
    for (const key of [...this.#done.keys()])
      if (key.startsWith(`${JSON.stringify(tabId)}|`)) this.#done.delete(key);
  }
}

const keyOf = (tabId: string, ledgerId: string) => `${JSON.stringify(tabId)}|${ledgerId}`;
