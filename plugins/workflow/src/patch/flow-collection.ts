/**
 * Item edits inside `[a, b]` and `{k: v}`. The spacing style is the collection's own: a new
 * item reuses the separator between the first two items (`, ` or `,\n  `), and the padding
 * before the closing bracket stays before the closing bracket.
 */
import type { CST } from 'yaml';
import {
  cutLeaves,
  isFlowScalar,
  isTriviaItem,
  leavesOfItem,
  sourceToken,
  type Item,
  type SourceToken,
} from './cst-tokens.js';

export function flowContentIndexes(node: CST.FlowCollection): number[] {
  const out: number[] = [];
  node.items.forEach((item, index) => {
    if (!isTriviaItem(item)) out.push(index);
  });
  return out;
}

function separator(node: CST.FlowCollection, content: readonly number[]): SourceToken[] {
  const second = content[1] === undefined ? undefined : node.items[content[1]];
  const tokens = second?.start;
  if (tokens && tokens[0]?.type === 'comma' && tokens.every((t) => t.type !== 'comment'))
    return tokens.map((t) => sourceToken(t.type, t.source, t.indent));
  return [sourceToken('comma', ','), sourceToken('space', ' ')];
}

/** The trivia printed after an item's last content (padding, a comment, a line break). */
export function cutTrailingTrivia(item: Item): SourceToken[] {
  const leaves = leavesOfItem(item);
  let last = leaves.length - 1;
  while (last >= 0 && !leaves[last]?.content) last--;
  return cutLeaves(leaves.slice(last + 1));
}

export function appendTrivia(item: Item, tokens: readonly SourceToken[]): void {
  const value = item.value;
  if (isFlowScalar(value)) (value.end ??= []).push(...tokens);
  else if (value?.type === 'flow-collection') value.end.push(...tokens);
  else if (item.sep) item.sep.push(...tokens);
  else item.start.push(...tokens);
}

/** Adds an item (start empty: the separator is chosen here) after the last one. */
export function flowAppend(node: CST.FlowCollection, item: Item): void {
  const content = flowContentIndexes(node);
  const lastIndex = content[content.length - 1];
  if (lastIndex === undefined) {
    node.items = [{ ...item, start: [] }];
    return;
  }
  const last = node.items[lastIndex] as Item;
  const trailing = cutTrailingTrivia(last);
  const added: Item = { ...item, start: separator(node, content) };
  appendTrivia(added, trailing);
  node.items.splice(lastIndex + 1, 0, added);
}

export function flowRemove(node: CST.FlowCollection, position: number): void {
  const content = flowContentIndexes(node);
  const at = content[position];
  if (at === undefined) throw new Error(`internal: no flow item at position ${position}`);
  const item = node.items[at] as Item;
  if (content.length === 1) {
    node.items = [];
    return;
  }
  if (position === content.length - 1) {
    const trailing = cutTrailingTrivia(item);
    const previous = node.items[content[position - 1] as number] as Item;
    cutTrailingTrivia(previous);
    appendTrivia(previous, trailing);
  } else if (position === 0) {
    // The next item becomes the first: it takes the opening padding instead of its comma.
    const next = node.items[content[1] as number] as Item;
    next.start = item.start.filter((token) => token.type !== 'comma');
  }
  node.items.splice(at, 1);
}
