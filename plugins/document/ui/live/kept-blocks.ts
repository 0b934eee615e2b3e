import { syntaxTree } from '@codemirror/language';
import type { EditorState, Range, Transaction } from '@codemirror/state';
import type { Decoration, DecorationSet, ViewUpdate } from '@codemirror/view';
import type { SyntaxNode } from '@lezer/common';
import { richBlock } from './blocks.js';

/*
 * What a change leaves of Live mode's decorations (ADR 110). A keystroke in a paragraph changes that
 * paragraph: every other top-level block keeps its place in the tree, only moved, so what Live mode
 * drew for it is mapped instead of drawn again. Anything this cannot vouch for is drawn again whole.
 *
 * A top-level block's extent in the Markdown tree depends on its own lines and on the lines right
 * around it: a setext underline or a table's delimiter row joins the line above, a lazy continuation
 * or an unclosed fence the lines below. Each of those, made or undone by an edit inside a block,
 * moves that block's own start or end. So when the change falls inside one top-level block whose
 * kind and ends are where the old tree's, mapped, put them, the parse is back at the top level at
 * the same places around it, and every other top-level block is as it was, only moved.
 * kept-blocks.test.ts holds this against drawing the whole note afresh, after random edits and
 * selections.
 */

/** The top-level block holding a transaction's change: in the tree before it and in the tree after. */
interface ChangedBlock {
  readonly old: SyntaxNode;
  readonly now: SyntaxNode;
}

/**
 * The top-level block holding `tr`'s one changed range, of the same kind and with its ends where
 * the tree before it had them, mapped: then every other top-level block is too. Null when there is
 * more than one range, the change reaches past one block (or lies between blocks), the block's ends
 * moved, or either tree is not whole yet (a parse still going on may find blocks the other lacks).
 */
function changedBlock(tr: Transaction): ChangedBlock | null {
  // Asked by the block field and both view plugins of one keystroke: found once.
  let found = changedBlocks.get(tr);
  if (found === undefined) changedBlocks.set(tr, (found = findChangedBlock(tr)));
  return found;
}

const changedBlocks = new WeakMap<Transaction, ChangedBlock | null>();

function findChangedBlock(tr: Transaction): ChangedBlock | null {
  if (!tr.docChanged || !parsedWhole(tr.startState) || !parsedWhole(tr.state)) return null;
  let ranges = 0;
  let fromA = 0;
  let toA = 0;
  let fromB = 0;
  let toB = 0;
  tr.changes.iterChangedRanges((a0, a1, b0, b1) => {
    ranges++;
    [fromA, toA, fromB, toB] = [a0, a1, b0, b1];
  });
  if (ranges !== 1) return null;
  const old = enclosingBlock(tr.startState, fromA, toA);
  const now = enclosingBlock(tr.state, fromB, toB);
  if (old === null || now === null || old.name !== now.name) return null;
  const kept = tr.changes.mapPos(old.from, -1) === now.from && tr.changes.mapPos(old.to, 1) === now.to;
  return kept ? { old, now } : null;
}

/** Whether every top-level block drawn before `tr` is drawn after it, with the same source, only moved. */
export function keepsDrawnBlocks(tr: Transaction): boolean {
  const before = tr.startState;
  const after = tr.state;
  if (tr.docChanged) {
    const block = changedBlock(tr);
    // A block Live mode may draw, edited: its source changed, or it stopped or started being one.
    if (block === null || richBlock(before, block.old) !== null || richBlock(after, block.now) !== null)
      return false;
  } else if (syntaxTree(after) !== syntaxTree(before)) {
    // The parse went on (or was redone) without an edit: no change tells where.
    return false;
  }
  if (tr.selection === undefined && !tr.docChanged) return true;
  // A block the person's selection touches shows its source: the selection touches none, before or after.
  return !selectionTouchesRichBlock(before) && !selectionTouchesRichBlock(after);
}

/** What draws some decorations over some ranges of a note, as over its visible ranges. */
export type DrawRanges = (state: EditorState, ranges: readonly VisibleRange[]) => Range<Decoration>[];

interface VisibleRange {
  readonly from: number;
  readonly to: number;
}

/**
 * The one transaction of `update` when its visible ranges only moved with it (a keystroke moves their
 * ends): then a view plugin may redraw its decorations in the changed block alone
 * (`redrawnInChangedBlock`). Null when they must be drawn again whole.
 */
export function onlyTransaction(update: ViewUpdate): Transaction | null {
  return update.viewportMoved || update.transactions.length !== 1 ? null : update.transactions[0]!;
}

/**
 * `decorations` (drawn by `draw` over the visible ranges before `tr`) after `tr`, given the visible
 * ranges after it, which are the ones before it mapped through it: drawn again only in the block its
 * one change is in, when the selection stays in that block's lines (so no other line starts or stops
 * being edited), the rest mapped. Null when they must be drawn again whole.
 */
export function redrawnInChangedBlock(
  tr: Transaction,
  visible: readonly VisibleRange[],
  decorations: DecorationSet,
  draw: DrawRanges,
): DecorationSet | null {
  const block = changedBlock(tr);
  if (block === null) return null;
  if (!selectionWithin(tr.startState, linesOf(tr.startState, block.old))) return null;
  // The block's lines: what is drawn for it starts at its first line's start (an indented block's too).
  const lines = linesOf(tr.state, block.now);
  if (!selectionWithin(tr.state, lines)) return null;
  const inside = (from: number, to: number) => from >= lines.from && to <= lines.to;
  const ranges = visible
    .map((range) => ({ from: Math.max(range.from, lines.from), to: Math.min(range.to, lines.to) }))
    .filter((range) => range.from <= range.to);
  return decorations.map(tr.changes).update({
    filter: (from, to) => !inside(from, to),
    filterFrom: lines.from,
    filterTo: lines.to,
    // What `draw` finds in the block's lines is the block's own: its neighbours are a line away.
    add: draw(tr.state, ranges),
    sort: true,
  });
}

function parsedWhole(state: EditorState): boolean {
  return syntaxTree(state).length === state.doc.length;
}

/** The top-level block whose lines hold all of `from`…`to`; null when there is none (blank lines). */
function enclosingBlock(state: EditorState, from: number, to: number): SyntaxNode | null {
  const start = state.doc.lineAt(from).from;
  const end = state.doc.lineAt(to).to;
  const node = syntaxTree(state).topNode.childAfter(start);
  return node !== null && node.from <= start && node.to >= end ? node : null;
}

/** From the start of `node`'s first line to the end of its last. */
function linesOf(state: EditorState, node: SyntaxNode): VisibleRange {
  return { from: state.doc.lineAt(node.from).from, to: state.doc.lineAt(node.to).to };
}

/** Whether every selection range lies in `lines`. */
function selectionWithin(state: EditorState, lines: VisibleRange): boolean {
  return state.selection.ranges.every((range) => range.from >= lines.from && range.to <= lines.to);
}

/** Whether a selection range touches the lines of a top-level block Live mode may draw. */
function selectionTouchesRichBlock(state: EditorState): boolean {
  const top = syntaxTree(state).topNode;
  for (const range of state.selection.ranges) {
    const from = state.doc.lineAt(range.from).from;
    const to = state.doc.lineAt(range.to).to;
    // From the last block starting before the range: one ending right at its start touches it too.
    for (
      let node = top.childBefore(from) ?? top.firstChild;
      node !== null && node.from <= to;
      node = node.nextSibling
    ) {
      if (node.to >= from && richBlock(state, node) !== null) return true;
    }
  }
  return false;
}
