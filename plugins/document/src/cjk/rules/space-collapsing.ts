/**
 * `spaceCollapsing` (universal): a run of spaces inside a line becomes one space
 * (`多个   空格` → `多个 空格`).
 *
 * What is not "inside a line" keeps its spaces: indentation (a run at a line start is
 * Markdown structure — list nesting, code indentation), and the padding next to line
 * structure such as a table cell's pipes or the space after a list marker. A run at
 * the segment's edge is collapsed only when the protected neighbour there is an inline
 * construct (`` `code`   中文 `` → `` `code` 中文 ``). Hard breaks are protected
 * regions, so they never reach this rule.
 */
import type { SegmentContext } from '../segments.js';

const INNER_RUN = /(?<=[^\s]) {2,}(?=[^ \t])/g;
const LEADING_RUN = /^ {2,}/;
const TRAILING_RUN = /(?<=[^\s]) {2,}$/;

export function collapseSpaces(text: string, context: SegmentContext): string {
  if (!text.includes('  ')) return text;
  let result = text.replace(INNER_RUN, ' ');
  if (context.afterInline) result = result.replace(LEADING_RUN, ' ');
  if (context.beforeInline) result = result.replace(TRAILING_RUN, ' ');
  return result;
}
