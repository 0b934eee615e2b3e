/** Regex building blocks shared by the `cjk-format` rules (all used with the `u` flag). */
import {
  CJK_CLOSING_BRACKETS,
  CJK_LETTER_RANGES,
  CJK_OPENING_BRACKETS,
  CJK_TERMINAL_PUNCTUATION,
} from '../char-classes.js';

/** One CJK letter (Han, kana, Bopomofo; not Hangul). */
export const CJK = `[${CJK_LETTER_RANGES}]`;

/** A CJK letter or fullwidth CJK punctuation: the context that turns `--` into `——`. */
export const CJK_CONTEXT = `[${CJK_LETTER_RANGES}${CJK_OPENING_BRACKETS}${CJK_CLOSING_BRACKETS}${CJK_TERMINAL_PUNCTUATION}]`;

/** Characters after which no space is put (a fullwidth mark carries its own spacing). */
export const NO_SPACE_AFTER = CJK_CLOSING_BRACKETS + CJK_TERMINAL_PUNCTUATION;
/** Characters before which no space is put. */
export const NO_SPACE_BEFORE = CJK_OPENING_BRACKETS + CJK_TERMINAL_PUNCTUATION;

/**
 * Characters whose Markdown meaning depends on what touches them: `$` (math
 * delimiter), `*` `_` `~` (emphasis and strikethrough delimiters, which open or close
 * by their neighbours), `\` (escape), `` ` `` (code span). A rule never removes the
 * whitespace next to one of these, which could turn literal text into markup.
 */
export const STICKY = '$*_~\\`';

/** `STICKY` as the body of a regex character class. */
export const STICKY_CLASS = '$*_~\\\\`';

const BLOCK_MARKER = /^[ \t]*(?:[-+*>]|#{1,6}|[0-9]{1,9}[.)])$/;

/**
 * Whether the line, from its start up to and including `text[index]`, is a block marker
 * waiting for its space (`-`, `+`, `#`, `>`, `1.`): putting a space after it would turn
 * a line of text into a list item, a heading or a quote.
 */
export function endsBlockMarker(text: string, index: number): boolean {
  const lineStart = text.lastIndexOf('\n', index) + 1;
  return index - lineStart < 16 && BLOCK_MARKER.test(text.slice(lineStart, index + 1));
}
