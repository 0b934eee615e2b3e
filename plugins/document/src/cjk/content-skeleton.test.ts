import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CONTEXT_FREE_RANGES, contentSkeleton, sameLetters } from './content-skeleton.js';

/**
 * Characters where NFKC does more than map one character to itself: fullwidth and
 * compatibility forms, ellipsis and fractions (several characters), combining marks and
 * kana voicing marks (composition with the character before), Hangul jamo, compatibility
 * jamo and halfwidth kana (which fold into composable forms), CJK compatibility
 * ideographs, astral characters (surrogate pairs), and plain letters, spaces and marks.
 */
const TRICKY = [
  'a',
  'A',
  'e',
  'z',
  '1',
  ' ',
  ',',
  '.',
  '"',
  '中',
  '文',
  'か',
  'カ',
  'ｶ',
  'ﾞ',
  'ﾟ',
  '\u3099',
  '\u309A',
  'Ａ',
  '１',
  '，',
  '。',
  '…',
  '½',
  '²',
  'ﬁ',
  '™',
  '\u00A0',
  '\u3000',
  '\u0301',
  '\u0300',
  '\u0327',
  '\u1100',
  '\u1161',
  '\u11A8',
  'ㄱ',
  'ㅏ',
  '가',
  '\uF900',
  '\uFA10',
  '𠀀',
  '😀',
  '\u200B',
  '℃',
  '㍿',
  'ǅ',
  'Å',
  'Ω',
  '\u212B',
  'ｱ',
  '—',
  '“',
  '$',
  '%',
  '\t',
  '\n',
];

const same = (a: string, b: string) => contentSkeleton(a) === contentSkeleton(b);

/** A text of the tricky characters, and one made from it by the edits the rules make and some they must not. */
const tricky = fc.array(fc.constantFrom(...TRICKY), { maxLength: 16 }).map((chars) => chars.join(''));
const edited = (text: string) =>
  fc
    .array(fc.tuple(fc.nat(text.length), fc.constantFrom('', ' ', '，', '…', 'x', '\u3099', '𠀀', 'Ａ')), {
      maxLength: 4,
    })
    .map((edits) =>
      edits.reduce((current, [at, insert]) => {
        const index = Math.min(at, current.length);
        return current.slice(0, index) + insert + current.slice(index + (insert === '' ? 1 : 0));
      }, text),
    );

/** Pairs of a text and an edit of it or another text, all drawn from `texts`. */
const pairsOf = (texts: fc.Arbitrary<string>) =>
  texts.chain((text) => fc.tuple(fc.constant(text), fc.oneof(edited(text), texts)));

describe('sameLetters', () => {
  it.each([
    ['texts where NFKC is not one-to-one', tricky],
    ['arbitrary Unicode text', fc.string({ unit: 'binary', maxLength: 24 })],
  ])('agrees with comparing contentSkeletons, on %s', (_name, texts) => {
    fc.assert(
      fc.property(pairsOf(texts), ([a, b]) => {
        expect(sameLetters(a, b)).toBe(same(a, b));
      }),
      { numRuns: 2000 },
    );
  });

  it('reads a context-free unit without its neighbours: nothing composes with or reorders across its start', () => {
    // Every code point that can follow the first in a canonical decomposition: all a
    // composition can take as its second part (combining marks, Hangul vowels and finals…).
    const seconds = new Set<number>();
    for (let code = 0; code <= 0x10ffff; code++) {
      if (code >= 0xd800 && code <= 0xdfff) continue;
      const char = String.fromCodePoint(code);
      const decomposed = char.normalize('NFD');
      if (decomposed === char) continue;
      for (const part of [...decomposed].slice(1)) seconds.add(part.codePointAt(0)!);
    }
    expect(seconds.has(0x0301) && seconds.has(0x3099) && seconds.has(0x1161) && seconds.has(0x11a8)).toBe(
      true,
    );
    const unsafe: string[] = [];
    for (const [from, to] of CONTEXT_FREE_RANGES) {
      for (let code = from; code <= to; code++) {
        const char = String.fromCharCode(code);
        const start = char.normalize('NFKD').codePointAt(0)!;
        const startsWithStarter =
          !/\p{M}/u.test(String.fromCodePoint(start)) &&
          // A non-starter would be reordered before a preceding mark of a higher class.
          ('a\u0345' + char).normalize('NFD') === 'a\u0345' + char.normalize('NFD');
        if (!startsWithStarter || seconds.has(start)) unsafe.push(code.toString(16));
      }
    }
    expect(unsafe).toEqual([]);
  });

  it('ignores what the rules change and sees what they must not', () => {
    expect(sameLetters('学习TypeScript,很好...', '学习 TypeScript，很好……')).toBe(true);
    expect(sameLetters('Ａ１', 'A1')).toBe(true);
    expect(sameLetters('か\u3099', 'が')).toBe(true);
    expect(sameLetters('甲乙', '乙甲')).toBe(false);
    expect(sameLetters('中文English', '中文 Englis')).toBe(false);
    expect(sameLetters('𠀀', '𠀁')).toBe(false);
  });
});
