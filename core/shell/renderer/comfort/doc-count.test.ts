import { Text } from '@codemirror/state';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { countDocument } from './doc-count.js';
import { countText } from './text-count.js';

const never = () => false;
const lineText = (i: number) => `Line ${i}: 漢字かな and 😀 emoji, don’t split ${i % 7 === 0 ? '' : 'words'}`;
const docOf = (text: string) => Text.of(text.split('\n'));

describe('countDocument', () => {
  it('counts a many-leaf rope as the whole text is counted', () => {
    const text = Array.from({ length: 5_000 }, (_, i) => lineText(i)).join('\n');
    const doc = docOf(text);
    expect(doc.children).not.toBeNull();
    expect(countDocument(doc, never)).toEqual(countText(text));
  });

  it('counts any text split into lines anywhere as the whole text', () => {
    const piece = fc.constantFrom('a', "'", '’', ' ', '\n', '\n\n', '中', '😀', 'don', 't', '\t', 'é');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 400 }), (parts) => {
        const text = parts.join('');
        expect(countDocument(docOf(text), never)).toEqual(countText(text));
      }),
      { numRuns: 500 },
    );
  });

  it('goes on where a stopped count left off, and ends with the same count', () => {
    const text = Array.from({ length: 3_000 }, (_, i) => lineText(i)).join('\n');
    const doc = docOf(text);
    let slices = 0;
    let result = null;
    while (result === null) {
      let leaves = 0;
      slices += 1;
      // Each slice may count ten leaves.
      result = countDocument(doc, () => ++leaves > 10);
    }
    expect(slices).toBeGreaterThan(5);
    expect(result).toEqual(countText(text));
  });

  it('counts an edited rope right, counting again only the leaves the edit touched', () => {
    const text = Array.from({ length: 3_000 }, (_, i) => lineText(i)).join('\n');
    const doc = docOf(text);
    countDocument(doc, never);
    const at = doc.line(1500).from;
    const edited = doc.replace(at, at, Text.of(['two more ']));
    let leaves = 0;
    const count = countDocument(edited, () => (leaves++, false));
    expect(count).toEqual(countText(edited.toString()));
    expect(count!.words).toBe(countText(text).words + 2);
    expect(leaves).toBe(1);
  });
});
