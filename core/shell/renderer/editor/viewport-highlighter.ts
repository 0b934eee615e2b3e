import { HighlightStyle, highlightingFor, syntaxHighlighting, syntaxTree } from '@codemirror/language';
import { type EditorState, type Extension, Prec, RangeSetBuilder } from '@codemirror/state';
import {
  Decoration,
  type DecorationSet,
  type EditorView,
  ViewPlugin,
  type ViewUpdate,
} from '@codemirror/view';
import { NodeProp, Tree, type TreeBuffer } from '@lezer/common';
import { type Highlighter, highlightTree } from '@lezer/highlight';

/*
 * Syntax colours drawn from the blocks in view (ADR 96). CodeMirror's own highlighter walks the
 * top node's children from the first with a cursor that looks through the anonymous nodes which
 * balance them, so at the end of a 10 MB note every keystroke stepped over every block before
 * the viewport (~40,000; 10–20 ms). This one hands @lezer/highlight a top node holding only the
 * children that overlap the range, found by descending the balancing nodes, and draws the same
 * classes: those of every highlighter registered in the state, as CodeMirror joins them.
 */

/**
 * The tree's top node with only the children that overlap [from, to) (at their places, looked
 * for through the anonymous nodes): what `highlightTree` visits of the whole tree in that range,
 * so it draws the same spans. The whole tree when its top is not a plain node (a mount).
 */
export function treeAround(tree: Tree, from: number, to: number): Tree {
  if (tree.prop(NodeProp.mounted) !== undefined) return tree;
  const children: (Tree | TreeBuffer)[] = [];
  const positions: number[] = [];
  const collect = (node: Tree, offset: number): void => {
    for (let i = 0; i < node.children.length; i++) {
      const child = node.children[i]!;
      const start = offset + node.positions[i]!;
      if (start + child.length <= from) continue;
      if (start >= to) break;
      if (child instanceof Tree && child.type.isAnonymous) collect(child, start);
      else {
        children.push(child);
        positions.push(start);
      }
    }
  };
  collect(tree, 0);
  return new Tree(tree.type, children, positions, tree.length);
}

/** Every highlighter of the state at once, as CodeMirror's own highlighter combines them. */
function stateHighlighter(state: EditorState): Highlighter {
  return { style: (tags) => highlightingFor(state, tags) };
}

class ViewportHighlighter {
  decorations: DecorationSet;
  #tree: Tree;
  #decoratedTo: number;
  readonly #marks = new Map<string, Decoration>();

  constructor(view: EditorView) {
    this.#tree = syntaxTree(view.state);
    this.decorations = this.#build(view);
    this.#decoratedTo = view.viewport.to;
  }

  update(update: ViewUpdate): void {
    const tree = syntaxTree(update.state);
    const { viewport } = update.view;
    // A new configuration may bring or drop a highlighter (a kind's view swapped, a theme).
    const styleChange = update.transactions.some((tr) => tr.reconfigured);
    const decoratedTo = update.changes.mapPos(this.#decoratedTo, 1);
    // As CodeMirror's: while the parse has not reached the viewport, the last colours move along.
    if (
      tree.length < viewport.to &&
      !styleChange &&
      tree.type === this.#tree.type &&
      decoratedTo >= viewport.to
    ) {
      this.decorations = this.decorations.map(update.changes);
      this.#decoratedTo = decoratedTo;
    } else if (tree !== this.#tree || update.viewportChanged || styleChange) {
      this.#tree = tree;
      this.decorations = this.#build(update.view);
      this.#decoratedTo = viewport.to;
    }
  }

  #build(view: EditorView): DecorationSet {
    if (this.#tree.length === 0) return Decoration.none;
    const builder = new RangeSetBuilder<Decoration>();
    const highlighter = stateHighlighter(view.state);
    for (const { from, to } of view.visibleRanges) {
      highlightTree(
        treeAround(this.#tree, from, to),
        highlighter,
        (start, end, style) => builder.add(start, end, this.#mark(style)),
        from,
        to,
      );
    }
    return builder.finish();
  }

  #mark(style: string): Decoration {
    let mark = this.#marks.get(style);
    if (mark === undefined) {
      mark = Decoration.mark({ class: style });
      this.#marks.set(style, mark);
    }
    return mark;
  }
}

/**
 * CodeMirror's own tree walker: the one part that every `syntaxHighlighting` call returns (the
 * highlighter's registration and style sheet are new each call).
 */
const codeMirrorWalker: Extension | undefined = (() => {
  const probe = HighlightStyle.define([]);
  const first = syntaxHighlighting(probe) as readonly Extension[];
  const second = syntaxHighlighting(probe) as readonly Extension[];
  return first.find((part) => second.includes(part));
})();

/**
 * A highlight style registered for the viewport highlighter: `syntaxHighlighting(style)` without
 * CodeMirror's walker, which would otherwise walk the whole tree beside it.
 */
export function highlightStyle(style: HighlightStyle): Extension {
  return (syntaxHighlighting(style) as readonly Extension[]).filter((part) => part !== codeMirrorWalker);
}

/** Draws the colours of every style registered in the state (`highlightStyle`), in the viewport. */
export const viewportHighlighter: Extension = Prec.high(
  ViewPlugin.fromClass(ViewportHighlighter, { decorations: (plugin) => plugin.decorations }),
);
