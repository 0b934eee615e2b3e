/**
 * `normalizeFullwidthPunctuation` finds its marks with a global pattern's `test` (issue 18);
 * here it is held, on random texts, to the walk over every unit it replaced, spelled out.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CJK_CLOSING_BRACKETS,
  CJK_OPENING_BRACKETS,
  CJK_TERMINAL_PUNCTUATION,
  charAt,
  charBefore,
  isCjkCodePoint,
  isCjkLetter,
} from '../char-classes.js';
import { isTechnicalMark } from '../latin-span-scanner.js';
import { normalizeFullwidthPunctuation } from './fullwidth-punctuation.js';

const FULLWIDTH: Readonly<Record<string, string>> = {
  ',': '，',
  '.': '。',
  '!': '！',
  '?': '？',
  ';': '；',
  ':': '：',
};

/**
 * As the walk read it: a low surrogate right before the mark is read with the unit two
 * before, as a pair, even when that unit is no high surrogate (so `中\uDC00,` counts 中).
 */
function cjkLetterBefore(text: string, index: number): boolean {
  const unit = text.charCodeAt(index - 1);
  const code = unit >= 0xdc00 && unit <= 0xdfff && index >= 2 ? text.codePointAt(index - 2)! : unit;
  return isCjkCodePoint(code);
}

function reference(text: string): string {
  let result = '';
  let lastConverted = -2;
  for (let index = 0; index < text.length; index++) {
    const char = text.charAt(index);
    const full = FULLWIDTH[char];
    const keep = () => {
      result += char;
    };
    if (full === undefined || text.charAt(index - 1) === '\\') {
      keep();
      continue;
    }
    if (char === '.' && (text.charAt(index - 1) === '.' || text.charAt(index + 1) === '.')) {
      keep();
      continue;
    }
    if (char === '.' && /(?:^|\n)[ \t]*[0-9]+$/.test(text.slice(0, index))) {
      keep();
      continue;
    }
    const before = charBefore(text, index);
    const after = charAt(text, index + 1);
    const leftIsCjk =
      lastConverted === index - 1 ||
      (before !== '' && (CJK_CLOSING_BRACKETS + CJK_TERMINAL_PUNCTUATION).includes(before)) ||
      cjkLetterBefore(text, index);
    const rightIsCjk = (after !== '' && CJK_OPENING_BRACKETS.includes(after)) || isCjkLetter(after);
    if ((!leftIsCjk && !rightIsCjk) || isTechnicalMark(text, index)) {
      keep();
      continue;
    }
    result += full;
    lastConverted = index;
  }
  return result;
}

describe('normalizeFullwidthPunctuation finds its marks with the engine', () => {
  it('converts as the walk over every unit did', () => {
    const piece = fc.constantFrom(
      ...',.!?;:\\中あ𠀀aZ09 \t\n。，」（《-/@',
      '\uD800',
      '\uDC00',
      '..',
      'http://x.io',
      'v1.2',
      'a.md',
      '\n12.',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 24 }), (pieces) => {
        const text = pieces.join('');
        expect(normalizeFullwidthPunctuation(text)).toBe(reference(text));
      }),
      { numRuns: 5000 },
    );
  });
});
