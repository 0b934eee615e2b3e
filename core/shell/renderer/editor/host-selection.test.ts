import { ChangeSet, EditorSelection } from '@codemirror/state';
import { describe, expect, it } from 'vitest';
import { selectionAfterHostChange } from './host-selection.js';

const TEXT = 'one two three\n';
const change = (from: number, to: number, insert: string) => ChangeSet.of({ from, to, insert }, TEXT.length);
const after = (selection: EditorSelection, changes: ChangeSet) =>
  selectionAfterHostChange(selection, changes).ranges.map((r) => [r.anchor, r.head]);

describe('the selection after a host change', () => {
  it('becomes the cursor after the text that replaced the selected range (selection.set)', () => {
    expect(after(EditorSelection.single(4, 7), change(4, 7, '2'))).toEqual([[5, 5]]);
    // Selected backwards: the same.
    expect(after(EditorSelection.single(7, 4), change(4, 7, 'TWO!'))).toEqual([[8, 8]]);
    // An empty replacement deletes the range: the cursor where it was.
    expect(after(EditorSelection.single(4, 8), change(4, 8, ''))).toEqual([[4, 4]]);
  });

  it('puts a cursor after text inserted at it, as after typing', () => {
    expect(after(EditorSelection.single(7), change(7, 7, ' and'))).toEqual([[11, 11]]);
  });

  it('moves a range the change did not replace exactly with the text', () => {
    // A change inside the range, one that overlaps it, one before it.
    expect(after(EditorSelection.single(0, 7), change(4, 7, 'TWO'))).toEqual([[0, 7]]);
    expect(after(EditorSelection.single(4, 13), change(0, 7, 'x'))).toEqual([[1, 7]]);
    expect(after(EditorSelection.single(8, 13), change(0, 3, '1'))).toEqual([[6, 11]]);
  });

  it('moves ranges when the change has more than one part, even one that matches', () => {
    const two = ChangeSet.of(
      [
        { from: 0, to: 3, insert: 'ONE' },
        { from: 4, to: 7, insert: 'x' },
      ],
      TEXT.length,
    );
    expect(after(EditorSelection.single(4, 7), two)).toEqual([[4, 5]]);
  });

  it('keeps the other ranges of a multiple selection and which one is the main one', () => {
    const selection = EditorSelection.create([EditorSelection.range(0, 3), EditorSelection.range(8, 13)], 1);
    const moved = selectionAfterHostChange(selection, change(8, 13, '3'));
    expect(moved.ranges.map((r) => [r.anchor, r.head])).toEqual([
      [0, 3],
      [9, 9],
    ]);
    expect(moved.mainIndex).toBe(1);
  });
});
