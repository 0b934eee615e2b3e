/**
 * Small vocabulary over the `yaml` CST: making source tokens, telling trivia (spaces,
 * line breaks, comments) from content, and listing a subtree's leaves in the order
 * `CST.stringify` prints them. Structural edits reason in those leaves, because where
 * the parser files a comment or an indentation (item start, separator, a nested
 * collection's tail) is an accident of parsing, while the printed order is not.
 */
import type { CST } from 'yaml';

export type SourceToken = CST.SourceToken;
export type Token = CST.Token;
export type Item = CST.CollectionItem;
export type BlockCollection = CST.BlockMap | CST.BlockSequence;

export function sourceToken(type: SourceToken['type'], source: string, indent = 0): SourceToken {
  return { type, offset: -1, indent, source };
}

export const spaceToken = (width: number): SourceToken => sourceToken('space', ' '.repeat(width));
export const newlineToken = (newline: string): SourceToken => sourceToken('newline', newline);

const TRIVIA = new Set(['space', 'newline', 'comment']);
const SOURCE_TOKEN_TYPES = new Set<string>([
  'byte-order-mark',
  'doc-mode',
  'doc-start',
  'space',
  'comment',
  'newline',
  'directive-line',
  'anchor',
  'tag',
  'seq-item-ind',
  'explicit-key-ind',
  'map-value-ind',
  'flow-map-start',
  'flow-map-end',
  'flow-seq-start',
  'flow-seq-end',
  'flow-error-end',
  'comma',
  'block-scalar-header',
]);

function isSourceToken(token: Token): token is SourceToken {
  return SOURCE_TOKEN_TYPES.has(token.type);
}

export function isTrivia(token: Token): token is SourceToken {
  return TRIVIA.has(token.type);
}

export function isFlowScalar(token: Token | undefined | null): token is CST.FlowScalar {
  return (
    token?.type === 'scalar' ||
    token?.type === 'single-quoted-scalar' ||
    token?.type === 'double-quoted-scalar' ||
    token?.type === 'alias'
  );
}

export function isBlockMap(token: Token | undefined | null): token is CST.BlockMap {
  return token?.type === 'block-map';
}

export function isBlockSeq(token: Token | undefined | null): token is CST.BlockSequence {
  return token?.type === 'block-seq';
}

export function isFlowCollection(token: Token | undefined | null): token is CST.FlowCollection {
  return token?.type === 'flow-collection';
}

export function isFlowMap(token: Token | undefined | null): token is CST.FlowCollection {
  return isFlowCollection(token) && token.start.type === 'flow-map-start';
}

export function isFlowSeq(token: Token | undefined | null): token is CST.FlowCollection {
  return isFlowCollection(token) && token.start.type === 'flow-seq-start';
}

/** An item that carries only comments, blank lines or indentation (the parser's "tail" items). */
export function isTriviaItem(item: Item): boolean {
  return item.key == null && item.sep === undefined && item.value === undefined && item.start.every(isTrivia);
}

/**
 * One printed piece of a subtree. `holder`/`index` locate the leaf when it is a source
 * token inside an array (item start, separator, `end`, block-scalar props): only those can
 * be moved or removed. Scalar text and a flow collection's opening bracket have no holder.
 */
export interface Leaf {
  readonly source: string;
  readonly content: boolean;
  readonly holder?: Token[];
  readonly index: number;
}

function pushArray(out: Leaf[], holder: Token[]): void {
  holder.forEach((token, index) => {
    if (isSourceToken(token)) out.push({ source: token.source, content: !isTrivia(token), holder, index });
    else collectToken(out, token);
  });
}

function collectToken(out: Leaf[], token: Token): void {
  switch (token.type) {
    case 'block-scalar':
      pushArray(out, token.props);
      out.push({ source: token.source, content: true, index: -1 });
      return;
    case 'block-map':
    case 'block-seq':
      for (const item of token.items) collectItem(out, item);
      return;
    case 'flow-collection':
      out.push({ source: token.start.source, content: true, index: -1 });
      for (const item of token.items) collectItem(out, item);
      pushArray(out, token.end);
      return;
    case 'document':
      collectItem(out, token);
      if (token.end) pushArray(out, token.end);
      return;
    default:
      if (isSourceToken(token)) {
        out.push({ source: token.source, content: !isTrivia(token), index: -1 });
        return;
      }
      out.push({ source: token.source, content: true, index: -1 });
      if ('end' in token && token.end) pushArray(out, token.end);
  }
}

function collectItem(out: Leaf[], item: Item): void {
  pushArray(out, item.start);
  if (item.key) collectToken(out, item.key);
  if (item.sep) pushArray(out, item.sep);
  if (item.value) collectToken(out, item.value);
}

export function leavesOfItem(item: Item): Leaf[] {
  const out: Leaf[] = [];
  collectItem(out, item);
  return out;
}

const endsLine = (leaf: Leaf): boolean => leaf.source.endsWith('\n');

/**
 * Where the trivia after the last line holding content begins: comments and blank lines
 * that follow an item (and the next outer line's indentation) print inside the item's
 * subtree, but belong to what comes after it. `leaves.length` when there is no such tail.
 */
export function tailStart(leaves: readonly Leaf[]): number {
  let last = -1;
  for (let i = leaves.length - 1; i >= 0; i--) {
    if (leaves[i]?.content) {
      last = i;
      break;
    }
  }
  if (last < 0) return leaves.length;
  if (endsLine(leaves[last] as Leaf)) return last + 1;
  for (let i = last + 1; i < leaves.length; i++) if (endsLine(leaves[i] as Leaf)) return i + 1;
  return leaves.length;
}

/**
 * Cuts the given leaves out of their arrays and returns them as tokens. Leaves of a tail
 * are always whole array suffixes (the printed order runs through each array in turn), so
 * truncating every array at its first cut index removes exactly them.
 */
export function cutLeaves(leaves: readonly Leaf[]): SourceToken[] {
  const cut: SourceToken[] = [];
  const firstIndex = new Map<Token[], number>();
  for (const leaf of leaves) {
    if (!leaf.holder) throw new Error('internal: cannot move a leaf that is not a source token');
    const token = leaf.holder[leaf.index];
    if (!token || !isSourceToken(token)) throw new Error('internal: leaf does not match its holder');
    cut.push(token);
    if (!firstIndex.has(leaf.holder)) firstIndex.set(leaf.holder, leaf.index);
  }
  for (const [holder, index] of firstIndex) holder.splice(index);
  return cut;
}

/** True when the printed subtree ends with a line break (false only at a file end without one). */
export function endsWithNewline(leaves: readonly Leaf[]): boolean {
  for (let i = leaves.length - 1; i >= 0; i--) {
    const leaf = leaves[i] as Leaf;
    if (leaf.source === '') continue;
    return endsLine(leaf);
  }
  return false;
}

/** Removes the subtree's final line break (used to keep a file that had no final newline that way). */
export function dropFinalNewline(leaves: readonly Leaf[]): void {
  for (let i = leaves.length - 1; i >= 0; i--) {
    const leaf = leaves[i] as Leaf;
    if (leaf.source === '') continue;
    if (leaf.holder && leaf.holder[leaf.index]?.type === 'newline') leaf.holder.splice(leaf.index, 1);
    return;
  }
}
