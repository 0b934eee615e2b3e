import type { Disposable } from '@vmark/sdk';
import type { ServerMessage, UiState } from '../../protocol/protocol.js';

interface Page {
  readonly windowLabel: string;
  readonly send: (json: string) => void;
  last: string;
}

/**
 * Sends each page the state of its own window whenever the workbench may have
 * changed, and only when what that page shows did change.
 */
export class WindowStates implements Disposable {
  readonly #pages = new Map<object, Page>();
  #scheduled = false;
  #disposed = false;

  constructor(private readonly stateOf: (windowLabel: string) => UiState) {}

  /** A page connected: it gets its state at once. */
  add(key: object, windowLabel: string, send: (json: string) => void): void {
    const page: Page = { windowLabel, send, last: '' };
    this.#pages.set(key, page);
    this.#sendIfChanged(page);
  }

  remove(key: object): void {
    this.#pages.delete(key);
  }

  /** Many changes arrive together (a keystroke: written, then dirty); the pages need the last. */
  changed = (): void => {
    if (this.#scheduled || this.#disposed) return;
    this.#scheduled = true;
    setImmediate(() => {
      this.#scheduled = false;
      if (this.#disposed) return;
      for (const page of this.#pages.values()) this.#sendIfChanged(page);
    });
  };

  dispose(): void {
    this.#disposed = true;
    this.#pages.clear();
  }

  #sendIfChanged(page: Page): void {
    const json = JSON.stringify({
      type: 'state',
      state: this.stateOf(page.windowLabel),
    } satisfies ServerMessage);
    if (json === page.last) return;
    page.last = json;
    page.send(json);
  }
}
