import type { ChangeSpec, Text } from '@codemirror/state';

/*
 * A task's checkbox toggles the `[ ]` / `[x]` in the Markdown itself: one character changed, as
 * an ordinary edit (synced, saved, one undo step).
 */

/** The change that toggles the task marker at `from` (its `[`), or null when none is there. */
export function toggleTask(doc: Text, from: number): ChangeSpec | null {
  const marker = doc.sliceString(from, from + 3);
  if (!/^\[[ xX]\]$/.test(marker)) return null;
  return { from: from + 1, to: from + 2, insert: marker[1] === ' ' ? 'x' : ' ' };
}

/** Whether the marker is checked: `[x]` or `[X]`. */
export function isChecked(marker: string): boolean {
  return marker[1] === 'x' || marker[1] === 'X';
}
