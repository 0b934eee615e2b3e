/**
 * The house style of one file, read from its CST, so that inserted lines look like their
 * neighbours: line ending, indentation step, whether a block sequence under a key is
 * indented, and which quote the file reaches for when a string needs quoting.
 */
import type { CST } from 'yaml';
import { isBlockMap, isBlockSeq, type Item, type Token } from './cst-tokens.js';

export interface Layout {
  readonly newline: '\n' | '\r\n';
  /** Columns between a key and the keys of its nested mapping. */
  readonly indentStep: number;
  /** Columns between a key and the dashes of its block sequence (0: `key:\n- a`). */
  readonly seqIndent: number;
  readonly quote: 'QUOTE_DOUBLE' | 'QUOTE_SINGLE';
}

interface Tally {
  step?: number;
  seqIndent?: number;
  single: number;
  double: number;
}

function walkItem(item: Item, parentIndent: number, tally: Tally): void {
  if (item.key) walk(item.key, parentIndent, tally);
  if (item.value) walk(item.value, parentIndent, tally);
}

function walk(token: Token, parentIndent: number, tally: Tally): void {
  if (token.type === 'single-quoted-scalar') tally.single++;
  if (token.type === 'double-quoted-scalar') tally.double++;
  if (isBlockMap(token)) {
    for (const item of token.items) {
      const value = item.value;
      if (isBlockMap(value) && tally.step === undefined && value.indent > token.indent)
        tally.step = value.indent - token.indent;
      if (isBlockSeq(value) && tally.seqIndent === undefined && item.key)
        tally.seqIndent = value.indent - token.indent;
      walkItem(item, token.indent, tally);
    }
    return;
  }
  if (token.type === 'block-seq' || token.type === 'flow-collection') {
    for (const item of token.items) walkItem(item, parentIndent, tally);
  }
}

export function detectLayout(source: string, document: CST.Document | undefined): Layout {
  const tally: Tally = { single: 0, double: 0 };
  if (document?.value) walk(document.value, 0, tally);
  const firstBreak = source.indexOf('\n');
  const step = tally.step ?? 2;
  return {
    newline: firstBreak > 0 && source[firstBreak - 1] === '\r' ? '\r\n' : '\n',
    indentStep: step,
    seqIndent: tally.seqIndent !== undefined && tally.seqIndent >= 0 ? tally.seqIndent : step,
    quote: tally.single > tally.double ? 'QUOTE_SINGLE' : 'QUOTE_DOUBLE',
  };
}
