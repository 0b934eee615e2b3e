import type { UiWindow } from '../../protocol/protocol.js';
import type { Connection } from './connection.js';
import { element } from './element.js';
import type { Unsubscribe } from './emitter.js';
import { rememberWindowLabel } from './window-label.js';

/**
 * This page as a workbench window: remembers its label, tells the host when
 * the person turns to it (so `session.get_state` knows their window), and,
 * when an AI client calls `focus_window` on it, comes forward as far as the
 * browser lets a page and briefly highlights itself.
 */
export class WindowIdentity {
  readonly #unsubscribe: Unsubscribe[] = [];
  readonly #label: HTMLElement;
  #focused: boolean | null = null;
  /** This page asked for the focus itself: no need to call attention to it. */
  #reported = false;

  constructor(
    private readonly connection: Connection,
    private readonly root: HTMLElement,
  ) {
    this.#label = element('span', 'window-label');
    root.querySelector('.sidebar-header')?.append(this.#label);
    const turnedTo = () => this.#report();
    window.addEventListener('focus', turnedTo);
    document.addEventListener('pointerdown', turnedTo, true);
    document.addEventListener('keydown', turnedTo, true);
    // Its own highlight's end, not any animation's below it (the event bubbles).
    const highlighted = (event: AnimationEvent) => {
      if (event.target === root) root.classList.remove('is-called');
    };
    root.addEventListener('animationend', highlighted);
    this.#unsubscribe.push(
      () => window.removeEventListener('focus', turnedTo),
      () => document.removeEventListener('pointerdown', turnedTo, true),
      () => document.removeEventListener('keydown', turnedTo, true),
      () => root.removeEventListener('animationend', highlighted),
      connection.onState((state) => this.#show(state.window)),
    );
  }

  dispose(): void {
    for (const unsubscribe of this.#unsubscribe.splice(0)) unsubscribe();
    this.#label.remove();
  }

  #show(window: UiWindow): void {
    rememberWindowLabel(window.label);
    this.root.dataset.window = window.label;
    this.root.dataset.windowFocused = String(window.focused);
    // `main` is the window everyone has; only further windows say which they are.
    this.#label.textContent = window.label === 'main' ? '' : window.label;
    this.#label.title = `This window is "${window.label}" to AI clients`;
    document.title = window.label === 'main' ? 'vmark' : `vmark — ${window.label}`;
    const first = this.#focused === null;
    const called = this.#focused === false && window.focused && !this.#reported;
    this.#focused = window.focused;
    if (window.focused) this.#reported = false;
    if (called) this.#callAttention();
    // A page opened in front is the person's window from the start.
    else if (first && !window.focused && document.hasFocus()) this.#report();
  }

  #report(): void {
    if (this.#focused !== false || this.#reported) return;
    this.#reported = true;
    this.connection.request('window.focus', {}).catch(() => {
      this.#reported = false;
    });
  }

  #callAttention(): void {
    window.focus();
    this.root.classList.remove('is-called');
    // Restart the animation when it is called twice in a row.
    void this.root.offsetWidth;
    this.root.classList.add('is-called');
  }
}
