/**
 * Line-level edits of a block mapping or sequence. The parser files the lines between two
 * items wherever it happens to be (a comment after the last step of a job lands inside
 * that step's mapping, the next job's indentation can sit in the previous job's tail), so
 * a collection is first normalised: every item then starts at the beginning of its own
 * line, carrying the comments and blank lines above it plus its indentation, and ends with
 * its last line break. Printing is unchanged by that; inserting, removing and moving whole
 * items then keeps every other line byte-for-byte.
 */
import type { CST } from 'yaml';
import {
  cutLeaves,
  dropFinalNewline,
  endsWithNewline,
  isTrivia,
  isTriviaItem,
  leavesOfItem,
  newlineToken,
  spaceToken,
  tailStart,
  type BlockCollection,
  type Item,
  type SourceToken,
  type Token,
} from './cst-tokens.js';
import type { Layout } from './layout.js';

export interface BlockView {
  readonly node: BlockCollection;
  readonly lead: SourceToken[] | undefined;
  /**
   * The first item shares its line with its owner (`- name: x`), so it has no indentation
   * of its own and cannot take the lines above it.
   */
  readonly compact: boolean;
}

export function contentIndexes(node: BlockCollection): number[] {
  const out: number[] = [];
  node.items.forEach((item, index) => {
    if (!isTriviaItem(item)) out.push(index);
  });
  return out;
}

const itemAt = (node: BlockCollection, index: number): Item => {
  const item = node.items[index];
  if (!item) throw new Error(`internal: no item ${index}`);
  return item;
};

/**
 * @param lead the tokens printed right before the first item: the owner's separator
 *   (`key:` + line break + indentation), the dash of a sequence item, or the document start.
 * @param root whether `lead` is the document start, whose comments head the whole file
 *   rather than the first key.
 */
export function normalizeBlock(
  node: BlockCollection,
  lead: SourceToken[] | undefined,
  { root = false }: { root?: boolean } = {},
): BlockView {
  const items = node.items as Item[];
  // Trivia items only ever sit at the end once normalised: fold any other into its successor.
  for (let i = 0; i < items.length - 1;) {
    const item = items[i] as Item;
    if (isTriviaItem(item)) {
      const next = items[i + 1] as Item;
      next.start = [...item.start, ...next.start];
      items.splice(i, 1);
    } else i++;
  }
  for (let i = 0; i < items.length; i++) {
    const item = items[i] as Item;
    if (isTriviaItem(item)) continue;
    const leaves = leavesOfItem(item);
    const from = tailStart(leaves);
    if (from >= leaves.length) continue;
    const tail = cutLeaves(leaves.slice(from));
    const next = items[i + 1];
    if (next) next.start = [...tail, ...next.start];
    else items.push({ start: tail });
  }
  const first = items[0];
  let compact = false;
  if (lead && lead.length > 0 && first && !isTriviaItem(first)) {
    const last = lead[lead.length - 1] as SourceToken;
    const before = lead[lead.length - 2];
    const indentation = last.type === 'space' && (before === undefined || before.type === 'newline');
    if (indentation || last.type === 'newline') {
      // The first item's indentation, and below a key the comment lines above the item,
      // become the item's own, as they are for every other item.
      const firstBreak = lead.findIndex((token) => token.type === 'newline');
      const from = !root && firstBreak >= 0 ? firstBreak + 1 : indentation ? lead.length - 1 : lead.length;
      first.start.unshift(...lead.splice(from));
    } else compact = true;
  }
  return { node, lead, compact };
}

/** The spaces after the dash of the sequence's first item (`-   run:` has 3); 1 by default. */
export function dashGap(node: CST.BlockSequence): number {
  const first = node.items.find((item) => !isTriviaItem(item));
  const dash = first?.start.findIndex((token) => token.type === 'seq-item-ind') ?? -1;
  const after = dash >= 0 ? first?.start[dash + 1] : undefined;
  return after?.type === 'space' ? after.source.length : 1;
}

/** Index just past the comments, blank lines and indentation that open `start`. */
function triviaRunEnd(start: readonly SourceToken[]): number {
  let end = 0;
  while (end < start.length && isTrivia(start[end] as SourceToken)) end++;
  return end;
}

function firstLineIsBlank(start: readonly SourceToken[]): boolean {
  for (const token of start) {
    if (token.type === 'newline') return true;
    if (token.type !== 'space') return false;
  }
  return false;
}

/** Whether a blank line opens the item (after the lines that close the previous item). */
function hasLeadingBlankLine(item: Item, column: number): boolean {
  return firstLineIsBlank(
    item.start.slice(leadingLinesEnd(item.start, (indentation) => indentation > column)),
  );
}

function stripLeadingBlankLines(item: Item): void {
  while (firstLineIsBlank(item.start)) {
    const newlineAt = item.start.findIndex((token) => token.type === 'newline');
    item.start.splice(0, newlineAt + 1);
  }
}

/** Whether the collection puts a blank line between its items (then new items get one too). */
export function isBlankSeparated(node: BlockCollection): boolean {
  const rest = contentIndexes(node).slice(1);
  return rest.length > 0 && rest.every((index) => hasLeadingBlankLine(itemAt(node, index), node.indent));
}

/**
 * Where the opening run of comment lines that `belongs` accepts ends: the lines up to the
 * last such comment line, stopping at the first comment line it rejects. Blank lines after
 * the last accepted comment are not included. A last line without a line break (the end
 * of a file) counts as a line.
 */
function leadingLinesEnd(start: readonly SourceToken[], belongs: (indentation: number) => boolean): number {
  let end = 0;
  let lineStart = 0;
  const accepts = (line: readonly SourceToken[]): boolean | undefined => {
    if (!line.some((part) => part.type === 'comment')) return undefined;
    return belongs(line[0]?.type === 'space' ? line[0].source.length : 0);
  };
  for (let i = 0; i < start.length; i++) {
    const token = start[i] as SourceToken;
    if (!isTrivia(token)) return end;
    if (token.type !== 'newline') continue;
    const verdict = accepts(start.slice(lineStart, i));
    if (verdict === false) return end;
    if (verdict === true) end = i + 1;
    lineStart = i + 1;
  }
  return accepts(start.slice(lineStart)) === true ? start.length : end;
}

/**
 * The comment lines indented deeper than the items that open an item's start: they close
 * the item printed before it (`# note` under a step's last key), so they stay with that one.
 */
function splitDeeperLines(item: Item, column: number): SourceToken[] {
  return item.start.splice(
    0,
    leadingLinesEnd(item.start, (indentation) => indentation > column),
  );
}

/** Prints `tokens` (whole lines) after everything an item prints. */
function appendLines(token: Token, tokens: SourceToken[]): void {
  switch (token.type) {
    case 'block-map':
    case 'block-seq':
      (token.items as Item[]).push({ start: tokens });
      return;
    case 'flow-collection':
      token.end.push(...tokens);
      return;
    case 'alias':
    case 'scalar':
    case 'single-quoted-scalar':
    case 'double-quoted-scalar':
      (token.end ??= []).push(...tokens);
      return;
    default:
      throw new Error(`internal: cannot add lines after a ${token.type}`);
  }
}

function appendLinesToItem(item: Item, tokens: SourceToken[]): void {
  if (tokens.length === 0) return;
  if (item.value) appendLines(item.value, tokens);
  else if (item.sep) item.sep.push(...tokens);
  else item.start.push(...tokens);
}

function appendNewlineToToken(token: Token, newline: string): void {
  switch (token.type) {
    case 'block-map':
    case 'block-seq': {
      const last = token.items[token.items.length - 1];
      if (last) appendNewlineToItem(last, newline);
      return;
    }
    case 'flow-collection':
      token.end.push(newlineToken(newline));
      return;
    case 'block-scalar': {
      // Its body ended the file without a line break, so its value has none: a line break
      // now would join the value unless the header strips it (`|` → `|-`, `>+` → `>-`).
      const header = token.props[0];
      if (header?.type === 'block-scalar-header' && !header.source.includes('-'))
        header.source = header.source.includes('+')
          ? header.source.replace('+', '-')
          : `${header.source.slice(0, 1)}-${header.source.slice(1)}`;
      token.source += newline;
      return;
    }
    case 'alias':
    case 'scalar':
    case 'single-quoted-scalar':
    case 'double-quoted-scalar':
      (token.end ??= []).push(newlineToken(newline));
      return;
    default:
      throw new Error(`internal: cannot end a ${token.type} with a line break`);
  }
}

function appendNewlineToItem(item: Item, newline: string): void {
  if (item.value) appendNewlineToToken(item.value, newline);
  else if (item.sep) item.sep.push(newlineToken(newline));
  else item.start.push(newlineToken(newline));
}

/** Adds `item` (already indented for this collection) after the last item. */
function appendItem(view: BlockView, item: Item, layout: Layout, separated: boolean): void {
  const { node } = view;
  const items = node.items as Item[];
  const content = contentIndexes(node);
  const lastIndex = content[content.length - 1];
  if (lastIndex === undefined) throw new Error('internal: cannot append to an empty block collection');
  const trailing = lastIndex < items.length - 1 ? (items[items.length - 1] as Item) : undefined;
  let dropNewline = false;
  if (!trailing && !endsWithNewline(leavesOfItem(items[lastIndex] as Item))) {
    // The file ended on this line without a line break; keep it ending without one.
    appendNewlineToItem(items[lastIndex] as Item, layout.newline);
    dropNewline = true;
  }
  let kept: SourceToken[] = [];
  if (trailing) {
    // Comment lines indented deeper than the items close the last item: the new item goes
    // below them (and above anything at the items' column, like a commented-out item).
    // Below it they could even be read as part of a block scalar it ends with.
    kept = splitDeeperLines(trailing, node.indent);
    if (trailing.start.length === 0) items.pop();
    if (kept.length > 0 && kept[kept.length - 1]?.type !== 'newline') {
      // That comment was the file's last line, without a line break.
      kept.push(newlineToken(layout.newline));
      dropNewline = true;
    }
  }
  if (separated && !hasLeadingBlankLine(item, node.indent)) item.start.unshift(newlineToken(layout.newline));
  item.start = [...kept, ...item.start];
  items.splice(lastIndex + 1, 0, item);
  if (dropNewline) dropFinalNewline(leavesOfItem(item));
}

/**
 * Puts `item` (with its own comment lines and indentation) at `position` among the
 * collection's items, clamped to an append.
 */
export function attachItem(
  view: BlockView,
  position: number,
  item: Item,
  layout: Layout,
  separated: boolean,
): void {
  const { node } = view;
  const content = contentIndexes(node);
  if (position >= content.length) {
    appendItem(view, item, layout, separated);
    return;
  }
  const at = content[Math.max(0, position)] as number;
  if (position <= 0) {
    stripLeadingBlankLines(item);
    const old = itemAt(node, at);
    if (view.compact) {
      // The new first item shares the owner's line; the old one moves to a line of its own.
      item.start.splice(0, triviaRunEnd(item.start));
      old.start.unshift(spaceToken(node.indent));
    }
    if (separated && !hasLeadingBlankLine(old, node.indent)) old.start.unshift(newlineToken(layout.newline));
  } else {
    if (separated && !hasLeadingBlankLine(item, node.indent))
      item.start.unshift(newlineToken(layout.newline));
    // Lines that close the previous item stay right after it, above the new one.
    item.start = [...splitDeeperLines(itemAt(node, at), node.indent), ...item.start];
  }
  (node.items as Item[]).splice(at, 0, item);
}

/**
 * Takes the item at `position` out: with the comment lines above it, except those that
 * close the previous item, and with the deeper-indented lines that close it (they travel
 * with a moved item and go with a deleted one).
 */
export function detachItem(view: BlockView, position: number): Item {
  const { node } = view;
  const content = contentIndexes(node);
  const at = content[position];
  if (at === undefined) throw new Error(`internal: no item at position ${position}`);
  const items = node.items as Item[];
  const [item] = items.splice(at, 1) as [Item];
  const endedFile = at === items.length && !endsWithNewline(leavesOfItem(item));
  const kept = position > 0 ? splitDeeperLines(item, node.indent) : [];
  const follower = items[at];
  if (follower) {
    appendLinesToItem(item, splitDeeperLines(follower, node.indent));
    follower.start = [...kept, ...follower.start];
    if (isTriviaItem(follower) && follower.start.length === 0) items.splice(at, 1);
  } else if (kept.length > 0) items.push({ start: kept });
  const next = items[at];
  if (position === 0 && next && !isTriviaItem(next)) {
    stripLeadingBlankLines(next);
    if (view.compact) {
      const run = triviaRunEnd(next.start);
      const ownLines = next.start.slice(0, run).some((token) => token.type === 'newline');
      // On the owner's line: drop the indentation, or the first comment line's indentation.
      if (!ownLines) next.start.splice(0, run);
      else if (next.start[0]?.type === 'space') next.start.splice(0, 1);
    }
  }
  if (endedFile) {
    // The removed item ended the file without a line break; so does what now ends it.
    const last = items[items.length - 1];
    if (kept.length > 0 && last) last.start.pop();
    else if (position > 0) dropFinalNewline(leavesOfItem(itemAt(node, content[position - 1] as number)));
    else if (view.lead?.[view.lead.length - 1]?.type === 'newline') view.lead.pop();
  }
  return item;
}
