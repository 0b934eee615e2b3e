import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isTechnical } from '../latin-span-scanner.js';
import { ELLIPSIS_BEFORE_WORD, normalizeEllipsis } from './ellipsis.js';
import { STICKY } from './patterns.js';

describe('normalizeEllipsis', () => {
  it('joins a spaced ellipsis', () => {
    expect(normalizeEllipsis('等等. . .')).toBe('等等...');
    expect(normalizeEllipsis('. . . .')).toBe('...');
    expect(normalizeEllipsis('text . . . more')).toBe('text... more');
  });

  it('puts one space between an ellipsis and the word after it (§6: 然后. . .继续 → 然后... 继续)', () => {
    expect(normalizeEllipsis('然后. . .继续')).toBe('然后... 继续');
    expect(normalizeEllipsis('然后...继续')).toBe('然后... 继续');
    expect(normalizeEllipsis('wait...   what')).toBe('wait... what');
  });

  it('leaves an ellipsis before closing punctuation or at the end attached', () => {
    expect(normalizeEllipsis('(等等...)')).toBe('(等等...)');
    expect(normalizeEllipsis('"Wait..."')).toBe('"Wait..."');
    expect(normalizeEllipsis('text...')).toBe('text...');
  });

  it('leaves a leading ellipsis with the word it introduces', () => {
    expect(normalizeEllipsis('"...the mere consciousness"')).toBe('"...the mere consciousness"');
    expect(normalizeEllipsis('...and then')).toBe('...and then');
  });

  it('does not split a longer run of dots, a digit range or a URL', () => {
    expect(normalizeEllipsis('wait....ok')).toBe('wait.... ok');
    expect(normalizeEllipsis('1...10')).toBe('1...10');
    expect(normalizeEllipsis('see https://example.com/a...b now')).toBe('see https://example.com/a...b now');
  });

  it('keeps indentation and the space after a sticky character', () => {
    expect(normalizeEllipsis('  . . . x')).toBe('  ... x');
    expect(normalizeEllipsis('$ . . .')).toBe('$ ...');
  });

  it('never joins lines', () => {
    expect(normalizeEllipsis('.\n.\n.')).toBe('.\n.\n.');
    expect(normalizeEllipsis('然后...\n继续')).toBe('然后...\n继续');
  });
});

describe('ELLIPSIS_BEFORE_WORD', () => {
  // The pattern as it was written first, with the look back before the dots.
  const LOOK_BACK_FIRST = /(?<=[^\s"'“‘「『(（[【《])\.\.\.(?!\.)[ \t]*(?=[\p{L}\p{N}])/gu;
  const matches = (pattern: RegExp, text: string) =>
    [...text.matchAll(pattern)].map((match) => [match.index, match[0]]);

  it('finds the matches of the pattern with the look back first', () => {
    const piece = fc.constantFrom(...'.. \t\n"\'“‘「『(（[【《a中1𠀀-'.split(''), '...', '....', '𠀀');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 20 }), (parts) => {
        const text = parts.join('');
        expect(matches(ELLIPSIS_BEFORE_WORD, text)).toEqual(matches(LOOK_BACK_FIRST, text));
      }),
      { numRuns: 3000 },
    );
  });
});

describe('the one gate (issue 18)', () => {
  // The rule as it was, gated only by a dot: the one search in front must change nothing.
  const SPACED = /([^\s.]?)([ \t]*)\.[ \t]+\.[ \t]+\.(?:[ \t]+\.)*/g;
  function before(text: string): string {
    if (!text.includes('.')) return text;
    let result = !/\.[ \t]+\./.test(text)
      ? text
      : text.replace(SPACED, (_match, lead: string, space: string) =>
          lead === '' || STICKY.includes(lead) ? `${lead}${space}...` : `${lead}...`,
        );
    if (!result.includes('...')) return result;
    const source = result;
    result = source.replace(ELLIPSIS_BEFORE_WORD, (match: string, offset: number) => {
      const next = source.charAt(offset + match.length);
      if (/[0-9]/.test(next) && /[0-9]/.test(source.charAt(offset - 1))) return match;
      if (isTechnical(source, offset)) return match;
      return '... ';
    });
    return result;
  }

  it('normalizes as the rule gated by a dot did', () => {
    const piece = fc.constantFrom('.', '. ', ' .', '\t', ' ', '中', 'a', '1', '"', '\n', '...', '$', 'x.io');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 16 }), (pieces) => {
        const text = pieces.join('');
        expect(normalizeEllipsis(text)).toBe(before(text));
      }),
      { numRuns: 3000 },
    );
  });
});
