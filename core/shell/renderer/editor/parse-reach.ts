import { ensureSyntaxTree, syntaxParserRunning, syntaxTree, syntaxTreeAvailable } from '@codemirror/language';
import type { EditorState } from '@codemirror/state';
import { type EditorView, ViewPlugin, type ViewUpdate } from '@codemirror/view';

/**
 * The longest idle slice spent parsing: a keystroke that arrives meanwhile waits at most this
 * long (CodeMirror's own worker takes up to 100 ms, or the idle deadline).
 */
const SLICE_MS = 12;
/** A page never idle (scrolled every frame) still parses a slice within this. */
const IDLE_TIMEOUT_MS = 500;

/** What the reach needs of an editor: its state, what it shows, and a way to publish the tree. */
export interface ReachTarget {
  readonly state: EditorState;
  /** The end of what the editor shows: the tree must reach it. */
  readonly viewportTo: number;
  /** CodeMirror's own parse worker still has budget and work scheduled: leave the parse to it. */
  parserRunning(): boolean;
  /** Makes the state's language field take the tree the parse has reached (an empty transaction). */
  publish(): void;
}

export type IdleScheduler = (slice: (msLeft: number) => void) => () => void;

const browserIdle: IdleScheduler = (slice) => {
  const id = requestIdleCallback((deadline) => slice(deadline.timeRemaining()), {
    timeout: IDLE_TIMEOUT_MS,
  });
  return () => cancelIdleCallback(id);
};

/**
 * Parses on, in idle slices, until the syntax tree reaches what the editor shows. CodeMirror's
 * parse worker spends at most 3 s of wall time per 30 s and publishes nothing before its parse ends
 * or that budget is spent: in a 10 MB note opened at its end on a busy machine the budget ran out
 * with the tree short of the viewport (ADR 97), so the end showed without colours and every
 * keystroke spent its own 20 ms parse budget re-using the parsed blocks and still fell short
 * (ADR 97 addendum). This takes over only when the worker has stopped, and stops at the viewport.
 */
export class ParseReach {
  #cancel: (() => void) | null = null;

  constructor(
    private readonly target: ReachTarget,
    private readonly idle: IdleScheduler = browserIdle,
  ) {
    this.schedule();
  }

  /** Call after every update of the editor: a change, a scroll, a new tree. */
  schedule(): void {
    if (this.#cancel !== null || this.#reached()) return;
    this.#cancel = this.idle((msLeft) => this.#slice(msLeft));
  }

  destroy(): void {
    this.#cancel?.();
    this.#cancel = null;
  }

  #reached(): boolean {
    return syntaxTreeAvailable(this.target.state, this.target.viewportTo);
  }

  #slice(msLeft: number): void {
    this.#cancel = null;
    if (this.#reached()) return;
    if (this.target.parserRunning()) return this.schedule();
    const { state, viewportTo } = this.target;
    const ms = Math.max(1, Math.min(SLICE_MS, msLeft));
    // Resumes the parse in progress (the language field's context) where the last slice left it.
    const tree = ensureSyntaxTree(state, viewportTo, ms);
    if (tree !== null && tree !== syntaxTree(state)) this.target.publish();
    this.schedule();
  }
}

/** The editor extension: a ParseReach for the view. */
export const parseReach = ViewPlugin.fromClass(
  class {
    readonly reach: ParseReach;
    constructor(view: EditorView) {
      this.reach = new ParseReach({
        get state() {
          return view.state;
        },
        get viewportTo() {
          return view.viewport.to;
        },
        parserRunning: () => syntaxParserRunning(view),
        publish: () => view.dispatch({}),
      });
    }
    update(update: ViewUpdate): void {
      if (
        update.docChanged ||
        update.viewportChanged ||
        syntaxTree(update.state) !== syntaxTree(update.startState)
      )
        this.reach.schedule();
    }
    destroy(): void {
      this.reach.destroy();
    }
  },
);
