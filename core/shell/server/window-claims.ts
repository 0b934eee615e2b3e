import type { Disposable } from '@vmark/sdk';

/** The part of the workbench that opens and closes windows. */
export interface WindowHost {
  openWindow(): string;
  hasWindow(label: string): boolean;
  closeWindow(label: string): void;
}

/** Runs `run` after `ms`; the returned function cancels it. */
export type Schedule = (run: () => void, ms: number) => () => void;

export const realSchedule: Schedule = (run, ms) => {
  const timer = setTimeout(run, ms);
  return () => clearTimeout(timer);
};

/** Long enough for a page to reload and connect again, short enough that a closed page's window soon goes. */
export const RELOAD_GRACE_MS = 5000;

/**
 * Which page holds which workbench window. Each page is a window of its own:
 * the first takes `main`, later ones get new windows. A page keeps its label
 * across a reload (it asks for it again when it reconnects); the window of a
 * page that does not come back within the grace period is closed. `main` is
 * never closed: an AI client keeps working in it with no page open.
 */
export class WindowClaims implements Disposable {
  /** label → the page that holds it. */
  readonly #held = new Map<string, object>();
  /** label → cancels the pending close of a window whose page went away. */
  readonly #closing = new Map<string, () => void>();

  constructor(
    private readonly windows: WindowHost,
    private readonly schedule: Schedule = realSchedule,
    private readonly graceMs = RELOAD_GRACE_MS,
  ) {}

  /**
   * The window for a page that connected, asking for `requested` (the label it
   * had before a reload) or for none. A label that is held by another page (a
   * duplicated browser tab carries its session storage) or no longer names a
   * window is not given: the page gets `main` if free, else a new window.
   */
  claim(page: object, requested: string | null): string {
    const label =
      requested !== null && this.windows.hasWindow(requested) && !this.#held.has(requested)
        ? requested
        : this.#held.has('main')
          ? this.windows.openWindow()
          : 'main';
    this.#closing.get(label)?.();
    this.#closing.delete(label);
    this.#held.set(label, page);
    return label;
  }

  /** The label a page holds, if it holds one. */
  labelOf(page: object): string | undefined {
    for (const [label, holder] of this.#held) if (holder === page) return label;
    return undefined;
  }

  /** The page went away: its window closes unless it comes back within the grace period. */
  release(page: object, onClosed: () => void): void {
    const label = this.labelOf(page);
    if (label === undefined) return;
    this.#held.delete(label);
    if (label === 'main') return;
    const cancel = this.schedule(() => {
      this.#closing.delete(label);
      if (this.#held.has(label) || !this.windows.hasWindow(label)) return;
      this.windows.closeWindow(label);
      onClosed();
    }, this.graceMs);
    this.#closing.set(label, cancel);
  }

  dispose(): void {
    for (const cancel of this.#closing.values()) cancel();
    this.#closing.clear();
    this.#held.clear();
  }
}
