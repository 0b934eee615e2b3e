import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { countText, countLabel, type TextCount } from './text-count.js';

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

describe('countLabel', () => {
  it('says the counts, singular and plural, and a selection', () => {
    expect(countLabel({ words: 1, characters: 1 }, false)).toBe('1 word · 1 character');
    expect(countLabel({ words: 2, characters: 10 }, true)).toBe('2 words · 10 characters selected');
  });
});

/** The rules as regular expressions (how they were first written): what the scanner must agree with. */
function countByExpressions(text: string): TextCount {
  const ideographic = String.raw`\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\u3005\u3007\u30FC`;
  const word = new RegExp(
    String.raw`[${ideographic}]|(?:(?![${ideographic}])[\p{L}\p{N}\p{M}])+(?:['’](?:(?![${ideographic}])[\p{L}\p{N}\p{M}])+)*`,
    'gu',
  );
  const words = text.match(word)?.length ?? 0;
  const spaces = text.match(/\s/gu)?.length ?? 0;
  const pairs = text.match(/[\uD800-\uDBFF][\uDC00-\uDFFF]/g)?.length ?? 0;
  return { words, characters: text.length - spaces - pairs };
}

describe('countText against the rules written as regular expressions', () => {
  // Letters, marks, digits, apostrophes, ideographs of each script, Hangul, white space of
  // several kinds, astral characters and lone surrogate halves.
  const pieces = [
    'a',
    'Z',
    '9',
    'é',
    'e\u0301',
    "'",
    '’',
    '-',
    ' ',
    '\n',
    '\t',
    '\u00a0',
    '\u3000',
    '\r',
    '中',
    '々',
    '〇',
    'ー',
    'ひ',
    'カ',
    '한',
    '𠀋',
    '😀',
    '𝐀',
    '\ud800',
    '\udc00',
    '#',
    '*',
    '٣',
    'ß',
  ];
  const text = fc.array(fc.constantFrom(...pieces), { maxLength: 40 }).map((parts) => parts.join(''));

  it('counts the same words and characters in any text', () => {
    fc.assert(
      fc.property(text, (t) => {
        expect(countText(t)).toEqual(countByExpressions(t));
      }),
      {
        numRuns: 1000,
      },
    );
  });

  it('counts the same in any string of code units', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 60 }), (t) => {
        expect(countText(t)).toEqual(countByExpressions(t));
      }),
      { numRuns: 300 },
    );
  });
});
