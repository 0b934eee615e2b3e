/**
 * Who drives each AI tab: the AI, or the person at the editor (issue 16 item 4, issue 17 item 2).
 * The person's first input in the tab's view takes it over; until they hand it back, every AI
 * act, style, execute_js and navigate on it is refused with vmark-notes §4.4's words, and a
 * running workflow pauses with `lease-lost` (the runner listens to `onTakenOver`).
 */
import { type Disposable, TokenError, toDisposable } from '@vmark/sdk';

export type Driver = 'ai' | 'human';

/** vmark-notes §4.4, verbatim. */
export const HUMAN_DRIVING_MESSAGE = 'the human is currently driving this tab';

/** The token of that refusal: the run's reason code `lease-lost` as an MCP token (ADR 49). */
export const HUMAN_DRIVING_TOKEN = 'LEASE_LOST';

export class TabLease {
  readonly #human = new Set<string>();
  readonly #takenOver = new Set<(tabId: string) => void>();
  readonly #changed = new Set<(tabId: string, driver: Driver) => void>();

  isHumanDriving(tabId: string): boolean {
    return this.#human.has(tabId);
  }

  driver(tabId: string): Driver {
    return this.#human.has(tabId) ? 'human' : 'ai';
  }

  /** The person takes the tab; a second take while they drive changes nothing and tells no one. */
  takeOver(tabId: string): void {
    if (this.#human.has(tabId)) return;
    this.#human.add(tabId);
    // The view's marker follows even if a listener fails: the person is driving either way.
    try {
      for (const listener of [...this.#takenOver]) listener(tabId);
    } finally {
      this.#tell(tabId, 'human');
    }
  }

  /** The person gives the tab back to the AI. */
  handBack(tabId: string): void {
    if (!this.#human.delete(tabId)) return;
    this.#tell(tabId, 'ai');
  }

  /** The tab went away: nothing is remembered of it. */
  forget(tabId: string): void {
    this.#human.delete(tabId);
  }

  /** @throws TokenError `LEASE_LOST` while the person drives the tab. */
  assertAiMayDrive(tabId: string): void {
    if (this.#human.has(tabId)) throw new TokenError(HUMAN_DRIVING_TOKEN, HUMAN_DRIVING_MESSAGE, { tabId });
  }

  /** Called when the person takes a tab over (the workflow runner pauses its run there). */
  onTakenOver(listener: (tabId: string) => void): Disposable {
    this.#takenOver.add(listener);
    return toDisposable(() => this.#takenOver.delete(listener));
  }

  /** Called on every change of driver, either way (the tab strip's marker follows). */
  onChanged(listener: (tabId: string, driver: Driver) => void): Disposable {
    this.#changed.add(listener);
    return toDisposable(() => this.#changed.delete(listener));
  }

  #tell(tabId: string, driver: Driver): void {
    for (const listener of [...this.#changed]) listener(tabId, driver);
  }
}
