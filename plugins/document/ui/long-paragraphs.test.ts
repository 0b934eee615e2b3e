import { GFM, parser } from '@lezer/markdown';
import { describe, expect, it } from 'vitest';
import { LongParagraphs, MAX_CHARS, MIN_CHARS } from './long-paragraphs.js';

const markdown = parser.configure([GFM, LongParagraphs]);

/** The top-level blocks as `Name from-to`. */
function blocks(text: string): { name: string; from: number; to: number }[] {
  const out: { name: string; from: number; to: number }[] = [];
  const cursor = markdown.parse(text).cursor();
  if (cursor.firstChild()) {
    do out.push({ name: cursor.name, from: cursor.from, to: cursor.to });
    while (cursor.nextSibling());
  }
  return out;
}

/** Lines of prose with single newlines between them: one paragraph to CommonMark. */
const prose = (lines: number, from = 0) =>
  Array.from(
    { length: lines },
    (_, i) => `Line ${from + i}: some *words* and 漢字 to make it wide enough`,
  ).join('\n');

describe('long paragraphs', () => {
  it('leave a paragraph of ordinary length whole', () => {
    const text = prose(40);
    expect(text.length).toBeLessThan(MIN_CHARS);
    expect(blocks(text)).toEqual([{ name: 'Paragraph', from: 0, to: text.length }]);
  });

  it('cut a 40,000-line paragraph into pieces that cover it, each past the least length and within the most', () => {
    const text = prose(40_000);
    const pieces = blocks(text);
    expect(pieces.length).toBeGreaterThan(text.length / MAX_CHARS);
    expect(pieces.every((piece) => piece.name === 'Paragraph')).toBe(true);
    expect(pieces[0]!.from).toBe(0);
    expect(pieces.at(-1)!.to).toBe(text.length);
    pieces.forEach((piece, i) => {
      // Each piece ends at a line's end, and the next starts on the line after it.
      if (i > 0) expect(piece.from).toBe(pieces[i - 1]!.to + 1);
      if (i < pieces.length - 1) {
        expect(piece.to - piece.from).toBeGreaterThanOrEqual(MIN_CHARS);
        expect(piece.to - piece.from).toBeLessThan(MAX_CHARS + 100);
      }
    });
  });

  it('still parse the inline syntax inside each piece', () => {
    const tree = markdown.parse(prose(2_000));
    let emphasis = 0;
    tree.iterate({ enter: (node) => void (node.name === 'Emphasis' && emphasis++) });
    expect(emphasis).toBe(2_000);
  });

  it('move no cut away from an edit: the cuts are picked by the lines around them', () => {
    const text = prose(20_000);
    const cuts = (t: string) => blocks(t).map((piece) => piece.from);
    const before = cuts(text);
    // A word typed in the middle, and a line break typed there.
    const middle = text.indexOf('\n', text.length / 2);
    for (const typed of [' typed', '\nA new line']) {
      const after = cuts(text.slice(0, middle) + typed + text.slice(middle));
      const far = (cut: number) => Math.abs(cut - middle) > 2 * MAX_CHARS;
      const shifted = (cut: number) => (cut > middle ? cut + typed.length : cut);
      expect(after.filter(far)).toEqual(before.map(shifted).filter(far));
    }
  });

  it('never cut before a lazy line: a quote goes on to its end', () => {
    // The quote's first line has its `>`, the rest go on without it (CommonMark's lazy continuation).
    const text = `> ${prose(2_000)}`;
    expect(blocks(text)).toEqual([{ name: 'Blockquote', from: 0, to: text.length }]);
    const quoted = prose(2_000)
      .split('\n')
      .map((line) => `> ${line}`)
      .join('\n');
    const [quote] = blocks(quoted);
    expect(quote).toEqual({ name: 'Blockquote', from: 0, to: quoted.length });
    const pieces: string[] = [];
    markdown.parse(quoted).iterate({ enter: (node) => void (node.name === 'Paragraph' && pieces.push('p')) });
    expect(pieces.length).toBeGreaterThan(1);
  });

  it('never cut a table', () => {
    const rows = Array.from({ length: 3_000 }, (_, i) => `| ${i} | some cell text | more |`);
    const text = ['| n | text | more |', '| - | ---- | ---- |', ...rows].join('\n');
    expect(blocks(text)).toEqual([{ name: 'Table', from: 0, to: text.length }]);
  });
});
