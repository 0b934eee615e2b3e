/**
 * `newlineCollapsing` (universal, off by default): three or more line breaks (blank
 * lines that hold only spaces count as blank) become one blank line. One blank line
 * separates blocks in Markdown; more render the same and only spread the source.
 *
 * The original also deleted `<br />` lines; raw HTML is a protected region here, so it
 * stays (removing markup is not a typographic change).
 */
const BLANK_LINES = /(\r?\n)(?:[ \t]*\r?\n){2,}/g;

export function collapseNewlines(text: string): string {
  if (!text.includes('\n')) return text;
  return text.replace(BLANK_LINES, '$1$1');
}
