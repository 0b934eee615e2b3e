/**
 * `trailingSpaceRemoval` (universal): spaces and tabs at the end of a line go, and the
 * document ends in at most one newline (the one it had, if it had one: a file that
 * ended with a newline keeps it, as POSIX tools and diffs expect).
 *
 * A two-space hard break is a protected region (the parser marks it), so the spaces
 * that ARE Markdown are never seen here — only the ones at the end of a paragraph,
 * heading or blank line, which render as nothing.
 */
import type { SegmentContext } from '../segments.js';

const BEFORE_NEWLINE = /[ \t]+(?=\r?\n)/g;

export function removeTrailingSpaces(text: string, context: SegmentContext): string {
  const result = text.replace(BEFORE_NEWLINE, '');
  if (!context.atDocumentEnd) return result;
  let start = result.length;
  while (start > 0 && ' \t\r\n'.includes(result.charAt(start - 1))) start--;
  if (start === result.length) return result;
  const tail = result.slice(start);
  // A document of nothing but whitespace becomes empty: no newline is invented.
  const whole = start === 0 && context.atDocumentStart;
  const newline = whole || !tail.includes('\n') ? '' : tail.includes('\r\n') ? '\r\n' : '\n';
  return result.slice(0, start) + newline;
}
