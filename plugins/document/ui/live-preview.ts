/// <reference lib="dom" />
import { syntaxTree } from '@codemirror/language';
import type { EditorState, Range, Transaction } from '@codemirror/state';
import {
  Decoration,
  type DecorationSet,
  EditorView,
  ViewPlugin,
  type ViewUpdate,
  WidgetType,
} from '@codemirror/view';
import type { SyntaxNodeRef } from '@lezer/common';
import { frontMatterRange } from './front-matter.js';
import { onlyTransaction, redrawnInChangedBlock } from './live/kept-blocks.js';
import { decorateRich } from './live/rich-decorations.js';
import { livePreviewTheme } from './markdown-theme.js';

/*
 * The wysiwyg mode, as Obsidian's live preview: the Markdown source stays the
 * document (every position is an offset into it), and decorations hide the
 * markup marks on every line except those the selection touches, where the
 * person is editing and needs to see them.
 */

/** A bullet list's `-`, `*` or `+`, drawn as a bullet. */
class BulletWidget extends WidgetType {
  override eq(): boolean {
    return true;
  }

  toDOM(): HTMLElement {
    const bullet = document.createElement('span');
    bullet.className = 'cm-lp-bullet';
    bullet.textContent = '•';
    return bullet;
  }
}

const hide = Decoration.replace({});
const bullet = Decoration.replace({ widget: new BulletWidget() });
const HEADINGS = /^ATXHeading([1-6])$/;
const lineClass = (name: string) => Decoration.line({ class: name });
const markClass = (name: string) => Decoration.mark({ class: name });

/** What to hide and style in one node, given whether its line is being edited. */
function decorate(node: SyntaxNodeRef, state: EditorState, editing: boolean, out: Range<Decoration>[]): void {
  const parent = node.node.parent?.name ?? '';
  const heading = HEADINGS.exec(node.name);
  if (heading) {
    out.push(lineClass(`cm-lp-h${heading[1]}`).range(state.doc.lineAt(node.from).from));
    return;
  }
  switch (node.name) {
    case 'InlineCode':
      out.push(markClass('cm-lp-code').range(node.from, node.to));
      return;
    case 'Link':
      out.push(markClass('cm-lp-link').range(node.from, node.to));
      if (!editing) hideLinkMarkup(node, out);
      return;
    case 'Wikilink':
      out.push(markClass('cm-lp-link').range(node.from, node.to));
      if (!editing) hideWikilinkMarkup(node, state, out);
      return;
    case 'Blockquote':
      for (const from of lineStarts(state, node.from, node.to))
        out.push(lineClass('cm-lp-quote').range(from));
      return;
  }
  if (editing) return;
  switch (node.name) {
    case 'HeaderMark':
      // The `#`s and the space after them; a setext underline stays visible.
      if (HEADINGS.test(parent))
        out.push(hide.range(node.from, Math.min(node.to + 1, lineEnd(state, node.from))));
      return;
    case 'EmphasisMark':
    case 'StrikethroughMark':
      out.push(hide.range(node.from, node.to));
      return;
    case 'CodeMark':
      if (parent === 'InlineCode') out.push(hide.range(node.from, node.to));
      return;
    case 'LinkMark':
      if (parent === 'Autolink') out.push(hide.range(node.from, node.to));
      return;
    case 'ListMark':
      if (node.node.parent?.parent?.name === 'BulletList') out.push(bullet.range(node.from, node.to));
      return;
    case 'Escape':
      out.push(hide.range(node.from, node.from + 1));
      return;
  }
}

/** A link shows its text alone: `[` goes, and so does everything from `]` on (URL, title, reference). */
function hideLinkMarkup(link: SyntaxNodeRef, out: Range<Decoration>[]): void {
  const [open, close] = link.node.getChildren('LinkMark');
  if (open?.from !== link.from || close === undefined) return;
  out.push(hide.range(open.from, open.to), hide.range(close.from, link.to));
}

/** A wikilink shows its alias, else its name: the brackets go, and the name before a `|`. */
function hideWikilinkMarkup(link: SyntaxNodeRef, state: EditorState, out: Range<Decoration>[]): void {
  const [open, close] = link.node.getChildren('WikilinkMark');
  const inner = link.node.getChild('WikilinkTarget');
  if (open === undefined || close === undefined || inner === null) return;
  const pipe = state.sliceDoc(inner.from, inner.to).search(/\\?\|/);
  const shownFrom =
    pipe === -1
      ? inner.from
      : inner.from + pipe + (state.sliceDoc(inner.from + pipe, inner.from + pipe + 1) === '\\' ? 2 : 1);
  out.push(hide.range(open.from, shownFrom), hide.range(close.from, close.to));
}

function lineEnd(state: EditorState, pos: number): number {
  return state.doc.lineAt(pos).to;
}

/** The start of every line from `from` to `to`. */
function lineStarts(state: EditorState, from: number, to: number): number[] {
  const starts: number[] = [];
  for (let n = state.doc.lineAt(from).number; n <= state.doc.lineAt(to).number; n++) {
    starts.push(state.doc.line(n).from);
  }
  return starts;
}

/** Lines the selection touches, by number. */
function editingLines(state: EditorState): Set<number> {
  const lines = new Set<number>();
  for (const range of state.selection.ranges) {
    const first = state.doc.lineAt(range.from).number;
    const last = state.doc.lineAt(range.to).number;
    for (let n = first; n <= last; n++) lines.add(n);
  }
  return lines;
}

/** The live preview's decorations over the visible part of the document. */
export function livePreviewDecorations(
  state: EditorState,
  visible: readonly { from: number; to: number }[],
): DecorationSet {
  return Decoration.set(livePreviewRanges(state, visible), true);
}

/**
 * The live preview's `decorations` after `tr`, drawn again in the changed block alone when that is
 * enough (`redrawnInChangedBlock`, ADR 110): not when the front matter's extent changed, since what is
 * inside it is not decorated. Null when they must be drawn again whole.
 */
export function livePreviewAfter(
  tr: Transaction,
  visible: readonly { from: number; to: number }[],
  decorations: DecorationSet,
): DecorationSet | null {
  const before = frontMatterRange(tr.startState.doc);
  const after = frontMatterRange(tr.state.doc);
  const kept =
    before === null || after === null ? before === after : tr.changes.mapPos(before.to, 1) === after.to;
  return kept ? redrawnInChangedBlock(tr, visible, decorations, livePreviewRanges) : null;
}

/** The live preview's decorations over `ranges`, unsorted. */
function livePreviewRanges(
  state: EditorState,
  ranges: readonly { from: number; to: number }[],
): Range<Decoration>[] {
  const editing = editingLines(state);
  const out: Range<Decoration>[] = [];
  const tree = syntaxTree(state);
  // Front matter is metadata, shown as it is (front-matter.ts), whatever Markdown makes of it.
  const meta = frontMatterRange(state.doc);
  for (const { from, to } of ranges) {
    tree.iterate({
      from,
      to,
      enter: (node) => {
        if (meta !== null && node.from < meta.to && node.to <= meta.to + 1) return false;
        // Tables, math, tasks, footnotes, callouts, diagrams (live/, ADR 73).
        const rich = decorateRich(node, state, (pos) => editing.has(state.doc.lineAt(pos).number), out);
        if (rich !== undefined) return rich ? undefined : false;
        if (node.name === 'FencedCode' || node.name === 'CodeBlock' || node.name === 'HTMLBlock') {
          for (const start of lineStarts(state, node.from, node.to)) {
            out.push(lineClass('cm-lp-codeblock').range(start));
          }
          return false;
        }
        decorate(node, state, editing.has(state.doc.lineAt(node.from).number), out);
        return undefined;
      },
    });
  }
  return out;
}

export const livePreview = [
  ViewPlugin.fromClass(
    class {
      decorations: DecorationSet;

      constructor(view: EditorView) {
        this.decorations = livePreviewDecorations(view.state, view.visibleRanges);
      }

      update(update: ViewUpdate): void {
        if (
          update.docChanged ||
          update.selectionSet ||
          update.viewportChanged ||
          syntaxTree(update.state) !== syntaxTree(update.startState)
        ) {
          // A keystroke redraws its own block (ADR 110).
          const tr = onlyTransaction(update);
          this.decorations =
            (tr && livePreviewAfter(tr, update.view.visibleRanges, this.decorations)) ??
            livePreviewDecorations(update.state, update.view.visibleRanges);
        }
      }
    },
    { decorations: (plugin) => plugin.decorations },
  ),
  EditorView.editorAttributes.of({ class: 'cm-live-preview' }),
  livePreviewTheme,
];
