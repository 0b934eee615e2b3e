import { ChangeSet } from '@codemirror/state';
import type { ChangeSetJson } from '../../protocol/protocol.js';
import { diffLines } from './line-diff.js';

/** More inserted plus deleted lines than this and the changed span is replaced as one. */
const MAX_LINE_EDITS = 400;
/** Characters compared at once while trimming the common prefix and suffix of a 1 MB write. */
const BLOCK = 1024;

interface Replacement {
  readonly from: number;
  readonly to: number;
  readonly insert: string;
}

/**
 * The change that turns `before` into `after` touching as little as it can: the common prefix
 * and suffix stay, and between them only the lines that differ are replaced (a bounded line
 * diff; each replaced run of lines trimmed again to the characters that differ). A whole-text
 * write (an AI's `document.write`) thus reaches an editor as small changes in one transaction,
 * one undo step, and the person's cursor, scroll position and folds between them stay put.
 * No change starts or ends inside a surrogate pair.
 */
export function minimalChange(before: string, after: string): ChangeSetJson {
  const replacements: Replacement[] = [];
  const outer = trimmed(before, 0, before.length, after, 0, after.length);
  if (outer !== null) {
    const { from, to, afterFrom, afterTo } = outer;
    // Whole lines from here on: the line diff compares them, the trim inside each hunk refines.
    const lineFrom = from === 0 ? 0 : before.lastIndexOf('\n', from - 1) + 1;
    const tail = lineEndAfter(before, to);
    const afterLineFrom = afterFrom - (from - lineFrom);
    const afterLineTo = afterTo + (tail - to);
    const hunks = diffLines(
      linesOf(before, lineFrom, tail),
      linesOf(after, afterLineFrom, afterLineTo),
      MAX_LINE_EDITS,
    );
    if (hunks === null) {
      replacements.push({ from, to, insert: after.slice(afterFrom, afterTo) });
    } else {
      const beforeStarts = lineStarts(before, lineFrom, tail);
      const afterStarts = lineStarts(after, afterLineFrom, afterLineTo);
      for (const hunk of hunks) {
        const piece = trimmed(
          before,
          beforeStarts[hunk.beforeFrom]!,
          beforeStarts[hunk.beforeTo]!,
          after,
          afterStarts[hunk.afterFrom]!,
          afterStarts[hunk.afterTo]!,
        );
        if (piece !== null)
          replacements.push({
            from: piece.from,
            to: piece.to,
            insert: after.slice(piece.afterFrom, piece.afterTo),
          });
      }
    }
  }
  return ChangeSet.of(replacements, before.length, '\n').toJSON() as ChangeSetJson;
}

/**
 * `before[from, to)` and `after[afterFrom, afterTo)` without their common prefix and suffix
 * (never splitting a surrogate pair), or null when the two spans are equal.
 */
function trimmed(
  before: string,
  from: number,
  to: number,
  after: string,
  afterFrom: number,
  afterTo: number,
): { from: number; to: number; afterFrom: number; afterTo: number } | null {
  const limit = Math.min(to - from, afterTo - afterFrom);
  // Equal blocks first (a slice is a view, its comparison a memory compare), then character by character.
  let prefix = 0;
  while (
    prefix + BLOCK <= limit &&
    before.slice(from + prefix, from + prefix + BLOCK) ===
      after.slice(afterFrom + prefix, afterFrom + prefix + BLOCK)
  )
    prefix += BLOCK;
  while (prefix < limit && before.charCodeAt(from + prefix) === after.charCodeAt(afterFrom + prefix))
    prefix++;
  if (prefix === to - from && prefix === afterTo - afterFrom) return null;
  // Never split a surrogate pair: the editor would see half a character.
  if (prefix > 0 && isHighSurrogate(before.charCodeAt(from + prefix - 1))) prefix--;
  let suffix = 0;
  while (
    suffix + BLOCK <= limit - prefix &&
    before.slice(to - suffix - BLOCK, to - suffix) === after.slice(afterTo - suffix - BLOCK, afterTo - suffix)
  )
    suffix += BLOCK;
  while (
    suffix < limit - prefix &&
    before.charCodeAt(to - 1 - suffix) === after.charCodeAt(afterTo - 1 - suffix)
  )
    suffix++;
  if (suffix > 0 && isLowSurrogate(before.charCodeAt(to - suffix))) suffix--;
  return { from: from + prefix, to: to - suffix, afterFrom: afterFrom + prefix, afterTo: afterTo - suffix };
}

/** The end of the line holding `position` (past its `\n`), or the end of the text. */
function lineEndAfter(text: string, position: number): number {
  if (position > 0 && text.charCodeAt(position - 1) === 10) return position;
  const newline = text.indexOf('\n', position);
  return newline === -1 ? text.length : newline + 1;
}

/** The lines of `text[from, to)`, each with its `\n`; `from` starts a line. */
function linesOf(text: string, from: number, to: number): string[] {
  const lines: string[] = [];
  let start = from;
  while (start < to) {
    const newline = text.indexOf('\n', start);
    const end = newline === -1 || newline >= to ? to : newline + 1;
    lines.push(text.slice(start, end));
    start = end;
  }
  return lines;
}

/** Where each line of `text[from, to)` starts, and `to` last: line index → offset. */
function lineStarts(text: string, from: number, to: number): number[] {
  const starts = [from];
  let start = from;
  while (start < to) {
    const newline = text.indexOf('\n', start);
    start = newline === -1 || newline >= to ? to : newline + 1;
    starts.push(start);
  }
  return starts;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}
