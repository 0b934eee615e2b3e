import type { EditorState } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import type { DocumentEditor } from '../editor/document-editor.js';
import { element } from '../element.js';
import type { Unsubscribe } from '../emitter.js';
import type { Appearance } from './appearance.js';
import { countDocument } from './doc-count.js';
import { countLabel, countText } from './text-count.js';

/** Counting a large note on every keystroke would cost typing: the count follows once typing pauses. */
const COUNT_DELAY_MS = 150;
/**
 * A text not counted before (a note just opened) is counted in slices this long, in the page's
 * idle time: the note is drawn and scrolled first, and a 10 MB one never holds the page for its
 * whole count.
 */
const SLICE_MS = 8;
/** A page never idle (scrolled every frame) still gets its count within this. */
const IDLE_TIMEOUT_MS = 1_000;

/**
 * The status bar's right side (ADR 72): the shown text's words and characters (of the selection
 * when there is one; CJK-aware, text-count.ts) and the cursor's line and column (1-based, the
 * column in characters). Empty for a tab with no text editor shown.
 */
export class StatusInfo {
  readonly #count: HTMLElement;
  readonly #position: HTMLElement;
  #editor: DocumentEditor | null = null;
  #unsubscribe: Unsubscribe | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #slice: number | undefined;
  #counted: { doc: unknown; selection: unknown } | null = null;

  constructor(statusbar: HTMLElement) {
    this.#count = element('span', 'status-count');
    this.#position = element('span', 'status-position');
    this.#position.title = 'Line, column';
    statusbar.append(this.#count, this.#position);
  }

  show(editor: DocumentEditor | null): void {
    this.#unsubscribe?.();
    this.#unsubscribe = undefined;
    this.#editor = editor;
    this.#counted = null;
    this.#cancel();
    this.#count.textContent = '';
    if (editor === null || editor.dom.dataset.view !== 'text') {
      this.#position.textContent = '';
      return;
    }
    this.#unsubscribe = editor.onViewUpdate(() => this.#update(false));
    this.#update(true);
  }

  #update(now: boolean): void {
    const editor = this.#editor;
    if (editor === null) return;
    const state = editor.view.state;
    // Written only when it changed: an unchanged line and column (a host's confirmation) is no work for the page.
    const shown = position(state);
    if (this.#position.textContent !== shown) this.#position.textContent = shown;
    const { doc, selection } = state;
    if (this.#counted?.doc === doc && this.#counted.selection === selection) return;
    this.#cancel();
    const count = () => {
      this.#counted = { doc, selection };
      this.#countIn(editor.view.state);
    };
    if (now) count();
    else this.#timer = setTimeout(count, COUNT_DELAY_MS);
  }

  /**
   * Shows the counts of the state's selection, or of its whole text: at once when what is left to
   * count fits in a slice (the text's rope keeps what was counted, so after a keystroke only what
   * it touched is counted again), else in slices that a newer update cancels (`#update`). The
   * first slice runs at once: a note that fits in it shows its count with its first frame.
   */
  #countIn(state: EditorState): void {
    const ranges = state.selection.ranges.filter((r) => !r.empty);
    if (ranges.length > 0) {
      const selected = ranges.map((r) => state.sliceDoc(r.from, r.to)).join('\n');
      this.#count.textContent = countLabel(countText(selected), true);
      return;
    }
    const deadline = performance.now() + SLICE_MS;
    const whole = countDocument(state.doc, () => performance.now() > deadline);
    if (whole !== null) this.#count.textContent = countLabel(whole, false);
    else {
      this.#slice = requestIdleCallback(() => this.#countIn(state), { timeout: IDLE_TIMEOUT_MS });
    }
  }

  #cancel(): void {
    clearTimeout(this.#timer);
    if (this.#slice !== undefined) cancelIdleCallback(this.#slice);
    this.#slice = undefined;
  }
}

function position(state: EditorState): string {
  const head = state.selection.main.head;
  const line = state.doc.lineAt(head);
  const column = [...line.text.slice(0, head - line.from)].length + 1;
  return `Ln ${line.number}, Col ${column}`;
}

/** The browser's spell check in the editor's text, as the setting says (read on every update of the view). */
export function spellCheck(current: () => Appearance) {
  return EditorView.contentAttributes.of(() => ({ spellcheck: current().spellCheck ? 'true' : 'false' }));
}
