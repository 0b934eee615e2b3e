import { syntaxTree } from '@codemirror/language';
import {
  type EditorState,
  type Extension,
  type Range,
  StateEffect,
  StateField,
  type Transaction,
} from '@codemirror/state';
import { Decoration, type DecorationSet, EditorView, ViewPlugin, type ViewUpdate } from '@codemirror/view';
import type { SyntaxNode, SyntaxNodeRef } from '@lezer/common';
import { drawnBlock, fenceSource, mathSource, type RichBlock } from './blocks.js';
import { calloutHead, defaultTitle } from './callouts.js';
import { keepsDrawnBlocks } from './kept-blocks.js';
import { isChecked } from './tasks.js';
import {
  CalloutTitleWidget,
  FootnoteWidget,
  MathWidget,
  MermaidWidget,
  TableWidget,
  TaskWidget,
} from './widgets.js';

/*
 * Live mode's rich rendering (ADR 73), in two parts:
 * - blocks drawn whole (tables, math blocks, Mermaid): block widgets, which CodeMirror takes only
 *   from a state field, for the viewport and a margin around it (`drawnBlocks`);
 * - inline rendering (task boxes, inline math, footnotes, callouts), decided node by node for the
 *   visible ranges by the live preview's view plugin (`decorateRich`).
 */

function blockWidget(state: EditorState, node: SyntaxNode, block: RichBlock): Decoration {
  const widget =
    block.kind === 'table'
      ? new TableWidget(state.doc.sliceString(block.from, block.to))
      : block.kind === 'math'
        ? new MathWidget(mathSource(state, node), true)
        : new MermaidWidget(fenceSource(state, node));
  return Decoration.replace({ widget, block: true });
}

/** How far past the viewport blocks are drawn, in characters: drawn before they scroll into view. */
const MARGIN = 20_000;

/** The part of the document whose blocks are drawn: the viewport and a margin on each side. */
export interface DrawnWindow {
  readonly from: number;
  readonly to: number;
}

/** The block widgets of `window`: the top-level blocks in it that are drawn now. */
export function blockDecorations(state: EditorState, window: DrawnWindow): DecorationSet {
  const out: Range<Decoration>[] = [];
  const top = syntaxTree(state).topNode;
  for (
    let node = top.childAfter(window.from);
    node !== null && node.from <= window.to;
    node = node.nextSibling
  ) {
    const block = drawnBlock(state, node);
    if (block !== null) out.push(blockWidget(state, node, block).range(block.from, block.to));
  }
  return Decoration.set(out);
}

function changed(tr: Transaction): boolean {
  return tr.docChanged || tr.selection !== undefined || syntaxTree(tr.state) !== syntaxTree(tr.startState);
}

/** The viewport moved past the drawn window: the window it needs now. */
const setWindow = StateEffect.define<DrawnWindow>();

interface DrawnBlocks {
  readonly window: DrawnWindow;
  readonly decorations: DecorationSet;
}

function windowAround(viewport: DrawnWindow, length: number): DrawnWindow {
  return { from: Math.max(0, viewport.from - MARGIN), to: Math.min(length, viewport.to + MARGIN) };
}

/**
 * Tables, math blocks and diagrams, drawn in the viewport and a margin around it (a 1 MB note of
 * tables costs a keystroke the blocks near the cursor, not all of them). Drawn again when the text,
 * the tree, the selection or the window changes, unless the change leaves every block as it was
 * (`keepsDrawnBlocks`, ADR 110); each widget keeps its DOM while its source is the same.
 */
const drawnBlocks = StateField.define<DrawnBlocks>({
  create: (state) => {
    const window = { from: 0, to: Math.min(state.doc.length, 2 * MARGIN) };
    return { window, decorations: blockDecorations(state, window) };
  },
  update: (value, tr) => {
    let window = value.window;
    for (const effect of tr.effects) if (effect.is(setWindow)) window = effect.value;
    const moved = window !== value.window;
    if (!moved && !changed(tr)) return value;
    if (!moved && tr.docChanged)
      window = { from: tr.changes.mapPos(window.from, -1), to: tr.changes.mapPos(window.to, 1) };
    // A keystroke in a paragraph: the blocks only move, and CodeMirror finds the mapped set unchanged.
    if (!moved && keepsDrawnBlocks(tr)) return { window, decorations: value.decorations.map(tr.changes) };
    return { window, decorations: blockDecorations(tr.state, window) };
  },
  provide: (field) => EditorView.decorations.from(field, (value) => value.decorations),
});

/** Moves the drawn window with the viewport, after the update that moved it. */
const followViewport = ViewPlugin.fromClass(
  class {
    update(update: ViewUpdate): void {
      if (!update.viewportChanged) return;
      const { window } = update.state.field(drawnBlocks);
      const { from, to } = update.view.viewport;
      if (from >= window.from && to <= window.to) return;
      const view = update.view;
      queueMicrotask(() => {
        const next = windowAround(view.viewport, view.state.doc.length);
        view.dispatch({ effects: setWindow.of(next) });
      });
    }
  },
);

export const richBlocks: Extension = [drawnBlocks, followViewport];

const hide = Decoration.replace({});
const lineClass = (name: string) => Decoration.line({ class: name });

/** The callout a block quote is, read from its first line; null for a plain quote. */
function calloutOf(state: EditorState, quote: SyntaxNode) {
  return calloutHead(state.doc.lineAt(quote.from).text);
}

/**
 * Rich decorations for one node of the live preview's walk: `undefined` when the node is not
 * one of ours (the live preview goes on with it), `false` when it is handled, children included,
 * `true` when its children are still to be walked.
 */
export function decorateRich(
  node: SyntaxNodeRef,
  state: EditorState,
  editingAt: (pos: number) => boolean,
  out: Range<Decoration>[],
): boolean | undefined {
  switch (node.name) {
    case 'Table':
    case 'BlockMath':
    case 'FencedCode':
      // Drawn whole by the block field: nothing of it to decorate here.
      if (drawnBlock(state, node.node) !== null) return false;
      if (node.name === 'BlockMath') {
        for (let n = state.doc.lineAt(node.from).number; n <= state.doc.lineAt(node.to).number; n++)
          out.push(lineClass('cm-lp-math-source').range(state.doc.line(n).from));
        return false;
      }
      return undefined;
    case 'InlineMath':
      if (editingAt(node.from))
        out.push(Decoration.mark({ class: 'cm-lp-math-source' }).range(node.from, node.to));
      else {
        const tex = state.doc.sliceString(node.from + 1, node.to - 1);
        out.push(Decoration.replace({ widget: new MathWidget(tex, false) }).range(node.from, node.to));
      }
      return false;
    case 'Task':
      return decorateTask(node.node, state, editingAt, out);
    case 'ListMark':
      // A task's list mark is part of its checkbox (decorateTask), not a bullet.
      return node.node.parent?.getChild('Task') !== null && !editingAt(node.from) ? false : undefined;
    case 'FootnoteReference':
      if (!editingAt(node.from)) {
        const label = state.doc.sliceString(node.from + 2, node.to - 1);
        out.push(Decoration.replace({ widget: new FootnoteWidget(label, false) }).range(node.from, node.to));
      } else out.push(Decoration.mark({ class: 'cm-lp-fnref-source' }).range(node.from, node.to));
      return false;
    case 'FootnoteDefinition': {
      out.push(lineClass('cm-lp-footnote').range(state.doc.lineAt(node.from).from));
      const label = node.node.getChild('FootnoteLabel');
      if (label !== null && !editingAt(node.from)) {
        const text = state.doc.sliceString(label.from + 2, label.to - 2);
        const end = state.doc.sliceString(label.to, label.to + 1) === ' ' ? label.to + 1 : label.to;
        out.push(Decoration.replace({ widget: new FootnoteWidget(text, true) }).range(label.from, end));
      }
      return true;
    }
    case 'Blockquote':
      decorateCallout(node.node, state, editingAt, out);
      return undefined;
    case 'QuoteMark': {
      // A continuation line's `>` belongs to the block it continues (a paragraph): its quote is above.
      let quote = node.node.parent;
      while (quote !== null && quote.name !== 'Blockquote') quote = quote.parent;
      if (quote === null || editingAt(node.from) || calloutOf(state, quote) === null) return undefined;
      // The head line's marks go with its prefix (decorateCallout); the others' here, with one space.
      if (state.doc.lineAt(node.from).from === state.doc.lineAt(quote.from).from) return false;
      const end = state.doc.sliceString(node.to, node.to + 1) === ' ' ? node.to + 1 : node.to;
      out.push(hide.range(node.from, end));
      return false;
    }
  }
  return undefined;
}

/** `- [ ]` as a checkbox: the list mark and the marker give way to it on a line not being edited. */
function decorateTask(
  task: SyntaxNode,
  state: EditorState,
  editingAt: (pos: number) => boolean,
  out: Range<Decoration>[],
): boolean {
  const marker = task.getChild('TaskMarker');
  const listMark = task.parent?.getChild('ListMark');
  if (marker === null || editingAt(task.from)) return true;
  const from = listMark && listMark.to <= marker.from ? listMark.from : marker.from;
  const checked = isChecked(state.doc.sliceString(marker.from, marker.to));
  out.push(
    Decoration.replace({ widget: new TaskWidget(checked, marker.from - from) }).range(from, marker.to),
  );
  const text = state.doc.sliceString(marker.to, marker.to + 1) === ' ' ? marker.to + 1 : marker.to;
  if (checked && text < task.to) out.push(Decoration.mark({ class: 'cm-lp-task-done' }).range(text, task.to));
  return true;
}

/** A callout's lines: coloured by its type, its head's `> [!type]` drawn as an icon (and a title). */
function decorateCallout(
  quote: SyntaxNode,
  state: EditorState,
  editingAt: (pos: number) => boolean,
  out: Range<Decoration>[],
): void {
  const head = calloutOf(state, quote);
  if (head === null) return;
  const first = state.doc.lineAt(quote.from);
  const last = state.doc.lineAt(quote.to).number;
  for (let n = first.number; n <= last; n++) {
    const edge = n === first.number ? ' cm-lp-callout-head' : n === last ? ' cm-lp-callout-last' : '';
    out.push(
      lineClass(`cm-lp-callout cm-lp-callout-${head.style.kind}${edge}`).range(state.doc.line(n).from),
    );
  }
  if (editingAt(first.from)) return;
  const title = head.title === '' ? defaultTitle(head.type) : '';
  out.push(
    Decoration.replace({ widget: new CalloutTitleWidget(head.style, title) }).range(
      first.from,
      first.from + head.prefixEnd,
    ),
  );
  if (head.title !== '')
    out.push(Decoration.mark({ class: 'cm-lp-callout-title' }).range(first.from + head.prefixEnd, first.to));
}
