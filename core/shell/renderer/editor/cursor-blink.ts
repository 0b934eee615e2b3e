import type { Extension } from '@codemirror/state';
import { drawSelection, EditorView, ViewPlugin, type ViewUpdate } from '@codemirror/view';

/** Shown, then hidden, this long each: CodeMirror's own period (1,200 ms). */
const BLINK_MS = 600;
/** After this long without a move, an edit or the focus, the cursor stays shown, as GNOME's does. */
const REST_AFTER_MS = 10_000;

/**
 * CodeMirror still names another animation on the layer at every move (to restart its blink), which
 * at a rate of 0 runs for 0 ms: the page would start one, recompute the layer's style and dispatch
 * its start and end events through the whole page on every keystroke.
 */
const noCursorAnimation = EditorView.theme({ '.cm-cursorLayer': { animation: 'none !important' } });

/**
 * The drawn cursor (`drawSelection`), blinking by a timer as the browser's own caret does, not by
 * CodeMirror's CSS animation: an endless animation keeps the browser drawing a frame every 1/60 s for
 * as long as the editor has the focus (~40 ms of CPU a second on an idle page here), and a change from
 * the host then waits for the next of those frames instead of being drawn at once (ADR 108). The
 * cursor shows at once after every move, edit or focus, as it did, and rests shown once the person
 * has left it alone for a while: an editor open all day draws nothing while nothing changes.
 */
export function blinkingCursor(): Extension {
  return [drawSelection({ cursorBlinkRate: 0 }), noCursorAnimation, ViewPlugin.fromClass(CursorBlink)];
}

class CursorBlink {
  #timer: ReturnType<typeof setTimeout> | undefined;
  #hidden = false;
  #blinksLeft = 0;

  constructor(private readonly view: EditorView) {
    this.#restart();
  }

  update(update: ViewUpdate): void {
    if (update.selectionSet || update.docChanged || update.focusChanged) this.#restart();
  }

  destroy(): void {
    clearTimeout(this.#timer);
  }

  #restart(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#hide(false);
    if (!this.view.hasFocus) return;
    this.#blinksLeft = Math.floor(REST_AFTER_MS / BLINK_MS);
    this.#timer = setTimeout(this.#tick, BLINK_MS);
  }

  readonly #tick = (): void => {
    this.#hide(!this.#hidden);
    this.#blinksLeft--;
    // It rests shown: a tick that hid it always has another to show it again.
    this.#timer = this.#blinksLeft > 0 || this.#hidden ? setTimeout(this.#tick, BLINK_MS) : undefined;
  };

  #hide(hidden: boolean): void {
    if (hidden === this.#hidden) return;
    this.#hidden = hidden;
    // Visibility only: the layer is neither laid out nor its cursors measured again.
    const layer = this.view.scrollDOM.querySelector<HTMLElement>(':scope > .cm-cursorLayer');
    if (layer !== null) layer.style.visibility = hidden ? 'hidden' : '';
  }
}
