import type { EditorState } from '@codemirror/state';
import type { SyntaxNode } from '@lezer/common';

/*
 * Which Markdown blocks Live mode draws whole (a table, a math block, a Mermaid diagram), and
 * when: a block at the top of the document (not inside a quote or a list, whose marks the drawing
 * would swallow), whenever no selection touches its lines — the cursor inside shows its source.
 */

export type BlockKind = 'table' | 'math' | 'mermaid';

export interface RichBlock {
  readonly kind: BlockKind;
  /** The block's lines, whole: the start of its first, the end of its last. */
  readonly from: number;
  readonly to: number;
}

/** The language a fenced code block names (its info string's first word), or ''. */
export function fenceLanguage(state: EditorState, node: SyntaxNode): string {
  const info = node.getChild('CodeInfo');
  return info === null ? '' : state.doc.sliceString(info.from, info.to).split(/\s/)[0]!.toLowerCase();
}

/** The block `node` is, when Live mode may draw it whole; null otherwise. */
export function richBlock(state: EditorState, node: SyntaxNode): RichBlock | null {
  let kind: BlockKind;
  if (node.name === 'Table') kind = 'table';
  else if (node.name === 'BlockMath') kind = 'math';
  else if (node.name === 'FencedCode' && fenceLanguage(state, node) === 'mermaid') kind = 'mermaid';
  else return null;
  if (node.parent?.name !== 'Document') return null;
  const first = state.doc.lineAt(node.from);
  // Something before it on its first line (a list's continuation, a quote): not a block of its own.
  if (state.doc.sliceString(first.from, node.from).trim() !== '') return null;
  return { kind, from: first.from, to: state.doc.lineAt(node.to).to };
}

/** Whether any selection range touches `from`…`to` (its ends included): the person is editing it. */
export function touched(state: EditorState, from: number, to: number): boolean {
  return state.selection.ranges.some((range) => range.from <= to && range.to >= from);
}

/** The block `node` is, when it is drawn now: a rich block no selection touches. */
export function drawnBlock(state: EditorState, node: SyntaxNode): RichBlock | null {
  const block = richBlock(state, node);
  return block !== null && !touched(state, block.from, block.to) ? block : null;
}

/** The text inside a math block's `$$` marks (all of it after the first when it is unclosed). */
export function mathSource(state: EditorState, node: SyntaxNode): string {
  const marks = node.getChildren('BlockMathMark');
  const open = marks[0];
  const close = marks.length > 1 ? marks[marks.length - 1] : undefined;
  return state.doc.sliceString(open?.to ?? node.from, close?.from ?? node.to).trim();
}

/** The code inside a fenced block: the lines between its fences. */
export function fenceSource(state: EditorState, node: SyntaxNode): string {
  const open = state.doc.lineAt(node.from);
  const last = state.doc.lineAt(node.to);
  const marks = node.getChildren('CodeMark');
  const closed = marks.length > 1 && last.number > open.number;
  const end = closed ? last.from - 1 : last.to;
  return open.to >= end ? '' : state.doc.sliceString(open.to + 1, end);
}
