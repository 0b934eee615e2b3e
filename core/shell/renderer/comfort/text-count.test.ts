import { Text } from '@codemirror/state';
import { describe, expect, it } from 'vitest';
import { countDocument, countText, countLabel } from './text-count.js';

describe('countText', () => {
  it('counts Latin words and the characters that are not white space', () => {
    expect(countText('Hello world, again.')).toEqual({ words: 3, characters: 17 });
  });

  it('keeps a word with an apostrophe whole, and counts digits as words', () => {
    expect(countText("don't stop 2026")).toEqual({ words: 3, characters: 13 });
  });

  it('counts each CJK character as a word', () => {
    expect(countText('我們今天去公園')).toEqual({ words: 7, characters: 7 });
    expect(countText('ひらがなとカタカナ')).toEqual({ words: 9, characters: 9 });
  });

  it('counts a note of CJK and Latin mixed', () => {
    // 中文 (2) + vmark (1) + 編輯器 (3) + Markdown (1) + 筆記 (2) = 9 words.
    expect(countText('中文 vmark 編輯器：Markdown 筆記。')).toEqual({ words: 9, characters: 22 });
  });

  it('counts Hangul by its spaced words', () => {
    expect(countText('안녕하세요 세계')).toEqual({ words: 2, characters: 7 });
  });

  it('makes no words of Markdown marks but counts them as characters', () => {
    expect(countText('# Title\n\n- **bold** _it_')).toEqual({ words: 3, characters: 19 });
  });

  it('counts an astral character once', () => {
    expect(countText('𠀋')).toEqual({ words: 1, characters: 1 });
  });

  it('counts nothing in an empty or blank text', () => {
    expect(countText('')).toEqual({ words: 0, characters: 0 });
    expect(countText(' \n\t ')).toEqual({ words: 0, characters: 0 });
  });
});

/** Lines of words, CJK, apostrophes, astral characters, marks and white space, from a seed. */
function lines(seed: number, count: number): string[] {
  const pieces = ['word', "don't", '中文', '𠀋', '**', ' ', '\t', '\r', '2026', 'ünï', '’s', '—', '안녕'];
  let state = seed;
  const next = (n: number) => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state % n;
  };
  return Array.from({ length: count }, () =>
    Array.from({ length: next(12) }, () => pieces[next(pieces.length)]).join(next(3) === 0 ? '' : ' '),
  );
}

describe('countDocument', () => {
  it('gives the counts of the joined text, for a document of one part and of many', () => {
    for (const [seed, count] of [
      [1, 1],
      [2, 5],
      [3, 40],
      [4, 3000],
    ] as const) {
      const doc = Text.of(lines(seed, count));
      if (count === 3000) expect(doc.children).not.toBeNull();
      expect(countDocument(doc)).toEqual(countText(doc.toString()));
    }
  });

  it('counts a changed document as a whole text would be counted, change after change', () => {
    let doc = Text.of(lines(5, 5000));
    countDocument(doc);
    const edits = lines(6, 30);
    for (const [i, insert] of edits.entries()) {
      const from = (i * 7919) % doc.length;
      const to = Math.min(doc.length, from + (i % 5) * 13);
      // Line breaks inserted and removed, so parts split and join.
      doc = doc.replace(from, to, Text.of(insert.split(' ').slice(0, 3).join('\n').split('\n')));
      expect(countDocument(doc)).toEqual(countText(doc.toString()));
    }
  });

  it('does not join a word across a line break between two parts', () => {
    const doc = Text.of([...Array.from({ length: 2000 }, () => 'a'), "don't", 'stop'].reverse());
    expect(doc.children).not.toBeNull();
    expect(countDocument(doc)).toEqual({ words: 2002, characters: 2009 });
  });
});

describe('countLabel', () => {
  it('says the counts, singular and plural, and a selection', () => {
    expect(countLabel({ words: 1, characters: 1 }, false)).toBe('1 word · 1 character');
    expect(countLabel({ words: 2, characters: 10 }, true)).toBe('2 words · 10 characters selected');
  });
});
