/*
 * Plain text made to stay plain when spliced into Markdown prose: every
 * character that could start markup there gets a backslash (CommonMark lets
 * any ASCII punctuation be escaped, so an escape never shows in the rendering).
 */

/** Characters that open or close inline markup anywhere in a line. */
const INLINE_SPECIAL = /[\\`*~[\]<]/g;
/** `&` only where it would start a character reference such as `&amp;` or `&#35;`. */
const ENTITY_START = /&(?=#?[A-Za-z0-9]+;)/g;
/** Line starts that open a block: heading, quote, list item (bullet or ordered), thematic break, setext underline. */
const HEADING_START = /^([ \t]*)(#{1,6})(?=[ \t]|$)/;
const BLOCK_MARK_START = /^([ \t]*)([>+=-])/;
const ORDERED_START = /^([ \t]*\d{1,9})([.)])(?=[ \t]|$)/;

/**
 * `text` escaped for a paragraph. `atLineStart` says whether its first
 * character begins a line of the block it lands in; every line after a
 * newline in `text` does.
 */
export function escapeMarkdownText(text: string, atLineStart: boolean): string {
  return text
    .split('\n')
    .map((line, index) => {
      const inline = escapeInline(line);
      return index > 0 || atLineStart ? escapeLineStart(inline) : inline;
    })
    .join('\n');
}

function escapeInline(line: string): string {
  return line
    .replace(INLINE_SPECIAL, '\\$&')
    .replace(/_/g, (mark, at: number) => (isIntraword(line, at) ? mark : '\\_'))
    .replace(ENTITY_START, '\\&');
}

/** `snake_case` cannot open emphasis (CommonMark's intraword rule), so it is left alone. */
function isIntraword(line: string, at: number): boolean {
  return /[\p{L}\p{N}]/u.test(line[at - 1] ?? '') && /[\p{L}\p{N}]/u.test(line[at + 1] ?? '');
}

/** A `*` bullet needs no case here: `*` is escaped everywhere. */
function escapeLineStart(line: string): string {
  return line
    .replace(HEADING_START, '$1\\$2')
    .replace(BLOCK_MARK_START, '$1\\$2')
    .replace(ORDERED_START, '$1\\$2');
}
