import type { ChangeSet } from '@codemirror/state';

/**
 * The text after `changes`, built from slices of `content` and the inserted
 * text: a keystroke in a 10 MB document costs a copy of the string, not a
 * split into lines, a rope and a join (ADR 15). Lines join with `\n`, the
 * editors' only line separator, so positions stay offsets into `content`.
 * The caller checks that `changes` spans exactly `content`.
 */
export function applyChangeSet(content: string, changes: ChangeSet): string {
  const parts: string[] = [];
  let position = 0;
  changes.iterChanges((fromA, toA, _fromB, _toB, inserted) => {
    parts.push(content.slice(position, fromA), inserted.sliceString(0, inserted.length, '\n'));
    position = toA;
  });
  parts.push(content.slice(position));
  return parts.join('');
}
