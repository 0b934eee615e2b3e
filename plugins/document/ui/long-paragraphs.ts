import type { BlockContext, LeafBlock, Line, MarkdownConfig } from '@lezer/markdown';
import { continues } from './live/syntax.js';

/*
 * To the Markdown parser a paragraph is one leaf block, and a change anywhere in it parses its
 * inline content again, whole. A note whose lines have no blank line between them (a pasted log,
 * text broken with single newlines) is one paragraph: at 3 MB, every keystroke in it took the
 * editor's page 330–700 ms. So the editor's syntax tree cuts a paragraph past MIN_CHARS, before a
 * line its own text picks (its hash), and always past MAX_CHARS. A cut depends on the lines around
 * it only, so an edit moves no cut but those of the pieces it touches, and a keystroke parses one
 * piece again. The text is not changed: only where the editor's tree says a paragraph ends (an
 * emphasis or a link across a cut is not coloured; a 4,000-character paragraph is no prose).
 * Tables are never cut: their rows are one table. Nor before a lazy line (a quote's paragraph
 * going on without its `>`): there the cut would end the quote.
 */

/** A paragraph shorter than this is never cut. */
export const MIN_CHARS = 4000;
/** Past MIN_CHARS, a line whose hash is a multiple of this starts a new piece (1 line in 16). */
const PICK_ONE_IN = 16;
/** A paragraph is cut before the next line past this, picked or not. */
export const MAX_CHARS = 16000;

/** GFM's delimiter row (`| --- | :-: |`), the second line of a table. */
const DELIMITER_ROW = /^\|?(\s*:?-+:?\s*\|)+(\s*:?-+:?\s*)?$/;

/** FNV-1a over the line's text from its content's start. */
function lineHash(line: Line): number {
  let hash = 0x811c9dc5;
  for (let i = line.pos; i < line.text.length; i++) {
    hash ^= line.text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

function isTable(leaf: LeafBlock): boolean {
  const firstEnd = leaf.content.indexOf('\n');
  if (firstEnd < 0 || !leaf.content.slice(0, firstEnd).includes('|')) return false;
  const secondEnd = leaf.content.indexOf('\n', firstEnd + 1);
  const second = leaf.content.slice(firstEnd + 1, secondEnd < 0 ? undefined : secondEnd).trim();
  return DELIMITER_ROW.test(second);
}

function endsPiece(cx: BlockContext, line: Line, leaf: LeafBlock): boolean {
  const length = leaf.content.length;
  if (length < MIN_CHARS) return false;
  if (length < MAX_CHARS && lineHash(line) % PICK_ONE_IN !== 0) return false;
  return continues(cx, line) && !isTable(leaf);
}

/** The Markdown parser's extension that cuts long paragraphs into pieces. */
export const LongParagraphs: MarkdownConfig = {
  parseBlock: [{ name: 'LongParagraphPiece', endLeaf: endsPiece }],
};
