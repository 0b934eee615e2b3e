import type { Text } from '@codemirror/state';
import { countText, type TextCount } from './text-count.js';

/**
 * The counts of the rope nodes counted so far. A changed text shares every node the change did
 * not touch, so after a keystroke only the leaf it touched (32 lines at most) and the nodes above
 * it are counted again, not the whole note.
 */
const counted = new WeakMap<Text, TextCount>();

/**
 * The whole text's count (text-count.ts), summed over its rope's leaves: no word runs across the
 * line break between two leaves, and that break is white space, so the sum is the count of the
 * whole. Stops once `stop()` says so, before a leaf, and answers null: what was counted is kept,
 * so the next call goes on from there (a 10 MB note is counted in slices between frames).
 */
export function countDocument(doc: Text, stop: () => boolean): TextCount | null {
  const known = counted.get(doc);
  if (known !== undefined) return known;
  let count: TextCount;
  if (doc.children === null) {
    if (stop()) return null;
    count = countText(doc.toString());
  } else {
    let words = 0;
    let characters = 0;
    for (const child of doc.children) {
      const part = countDocument(child, stop);
      if (part === null) return null;
      words += part.words;
      characters += part.characters;
    }
    count = { words, characters };
  }
  counted.set(doc, count);
  return count;
}
