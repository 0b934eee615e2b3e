import { type ChangeSet, EditorSelection } from '@codemirror/state';

/**
 * The person's selection after a change the host made (an AI's write, `selection.set`, a reload
 * from disk). A selected range the change replaced exactly — `selection.set` over the selection —
 * becomes the cursor after the inserted text, as after a paste (the seed: "cursor placed after
 * inserted text"; a second `set` then inserts after the first, as in the original). Every other
 * range moves with the text, a cursor where text was inserted going after it, as after typing.
 */
export function selectionAfterHostChange(selection: EditorSelection, changes: ChangeSet): EditorSelection {
  const parts: { fromA: number; toA: number; toB: number }[] = [];
  changes.iterChanges((fromA, toA, _fromB, toB) => parts.push({ fromA, toA, toB }));
  const only = parts.length === 1 ? parts[0] : undefined;
  return EditorSelection.create(
    selection.ranges.map((range) =>
      only !== undefined && !range.empty && range.from === only.fromA && range.to === only.toA
        ? EditorSelection.cursor(only.toB)
        : range.map(changes, 1),
    ),
    selection.mainIndex,
  );
}
