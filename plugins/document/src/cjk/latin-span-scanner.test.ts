import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  NEEDS_ALNUM_DOT_ALNUM,
  NEEDS_AT,
  NEEDS_DIGIT_COLON_DIGIT,
  NEEDS_DIGIT_COMMA_DIGIT,
  NEEDS_DIGIT_DOT_DIGIT,
  NEEDS_URL,
  isTechnical,
  isTechnicalMark,
  spanNeeds,
  technicalMask,
} from './latin-span-scanner.js';

/** The masked substrings of `text`. */
function tokens(text: string): string[] {
  const mask = technicalMask(text);
  const found: string[] = [];
  let start = -1;
  for (let index = 0; index <= text.length; index++) {
    if (mask[index] === 1 && start === -1) start = index;
    if (mask[index] !== 1 && start !== -1) {
      found.push(text.slice(start, index));
      start = -1;
    }
  }
  return found;
}

describe('technicalMask', () => {
  it('finds URLs, stopping at CJK and before sentence punctuation', () => {
    expect(tokens('访问https://example.com/docs获取')).toEqual(['https://example.com/docs']);
    expect(tokens('见 https://example.com/a?b=1,2.')).toEqual(['https://example.com/a?b=1,2']);
    expect(tokens('(see https://en.wikipedia.org/wiki/A_(b))')).toEqual([
      'https://en.wikipedia.org/wiki/A_(b)',
    ]);
    expect(tokens('去www.example.com看')).toEqual(['www.example.com']);
  });

  it('finds e-mail addresses, versions, times, thousands, domains and decimals', () => {
    expect(tokens('联系user@example.com')).toEqual(['user@example.com']);
    expect(tokens('版本v1.2.3和1.2.3.4')).toEqual(['v1.2.3', '1.2.3.4']);
    expect(tokens('时间12:30或1:30:00')).toEqual(['12:30', '1:30:00']);
    expect(tokens('共1,000,000人')).toEqual(['1,000,000']);
    expect(tokens('用Node.js和example.com')).toEqual(['Node.js', 'example.com']);
    expect(tokens('约3.14倍')).toEqual(['3.14']);
  });

  it('finds nothing in prose', () => {
    expect(tokens('Hello, world. e.g. wait...ok 中文,English')).toEqual([]);
  });
});

describe('spanNeeds', () => {
  // The regular expressions each token pattern was gated by before the walk replaced them.
  const GATES: readonly [number, RegExp][] = [
    [NEEDS_URL, /:\/\/|www\./i],
    [NEEDS_AT, /@/],
    [NEEDS_DIGIT_DOT_DIGIT, /\d\.\d/],
    [NEEDS_DIGIT_COLON_DIGIT, /\d:\d/],
    [NEEDS_DIGIT_COMMA_DIGIT, /\d,\d/],
    [NEEDS_ALNUM_DOT_ALNUM, /[a-zA-Z0-9]\.[a-zA-Z0-9]/],
  ];
  const expected = (span: string) =>
    GATES.reduce((bits, [bit, gate]) => (gate.test(span) ? bits | bit : bits), 0);

  it('says exactly what the gating regular expressions said', () => {
    expect(spanNeeds('http://a.b', 0, 10)).toBe(expected('http://a.b'));
    expect(spanNeeds('WwW.', 0, 4)).toBe(NEEDS_URL);
    expect(spanNeeds('1.2', 0, 3)).toBe(NEEDS_DIGIT_DOT_DIGIT | NEEDS_ALNUM_DOT_ALNUM);
    // Only inside the span: the neighbours past its ends do not count.
    expect(spanNeeds('1.2', 1, 3)).toBe(0);
    const span = fc
      .array(fc.constantFrom(...'wW.:/,@09aZ-_ \t'.split(''), 'www.', '://', '1.2', '3:4', '5,6'), {
        maxLength: 12,
      })
      .map((parts) => parts.join(''));
    fc.assert(
      fc.property(span, fc.string({ maxLength: 3 }), fc.string({ maxLength: 3 }), (text, before, after) => {
        const whole = before + text + after;
        expect(spanNeeds(whole, before.length, before.length + text.length)).toBe(expected(text));
      }),
      { numRuns: 3000 },
    );
  });
});

describe('isTechnical', () => {
  // Technical tokens and their near misses, file names (CJK ones too), prose around them.
  const piece = fc.constantFrom(
    ...'.,:;@/\\-_ \t\naZw09中文。（'.split(''),
    'https://example.com/a?b=1,2.',
    'www.example.com',
    'user@example.com',
    'v1.2.3',
    '12:30',
    '1,000',
    'Node.js',
    '3.14',
    'e.g.',
    '...',
    '../docs/a.md',
    '.github/',
    '.vs-code_1/',
    '筆記.txt',
    'x.json5',
    '(b)',
  );
  const text = fc.array(piece, { maxLength: 24 }).map((parts) => parts.join(''));

  it('answers what the whole mask says, at every index, asked in any order', () => {
    expect(isTechnical('访问https://example.com/docs获取', 4)).toBe(true);
    expect(isTechnical('中文,English', 2)).toBe(false);
    expect(isTechnical('见notes/中文筆記.md。', 11)).toBe(true);
    expect(isTechnical('见notes/中文筆記.md。', 14)).toBe(false);
    fc.assert(
      fc.property(text, fc.array(fc.nat(), { maxLength: 40 }), (input, order) => {
        const mask = technicalMask(input);
        // Every index in order, then some again out of order: the answers do not depend on
        // which spans and dots earlier questions made it look at.
        const asked = [...mask.keys(), ...order.map((pick) => pick % (input.length + 1))];
        for (const index of asked) expect(isTechnical(input, index)).toBe(mask[index] === 1);
      }),
      { numRuns: 3000 },
    );
  });

  it('answers the same for a mark at the edge of its span without the scan (ADR 90)', () => {
    expect(isTechnicalMark('见 a.md。', 3)).toBe(true);
    expect(isTechnicalMark('中.a@b.co', 1)).toBe(true);
    expect(isTechnicalMark('中,English', 1)).toBe(false);
    const marked = fc
      .array(fc.oneof(piece, fc.constantFrom(',', '.', '!', '?', ';', ':', '中', 'a@b.co', 'x.md', '..')), {
        maxLength: 24,
      })
      .map((parts) => parts.join(''));
    fc.assert(
      fc.property(marked, (input) => {
        for (let index = 0; index < input.length; index++) {
          if (!',.!?;:'.includes(input.charAt(index))) continue;
          expect(isTechnicalMark(input, index), `${input} at ${index}`).toBe(isTechnical(input, index));
        }
      }),
      { numRuns: 5000 },
    );
  });

  it('starts over for each text', () => {
    expect(isTechnical('约3.14倍', 2)).toBe(true);
    expect(isTechnical('约3,14倍', 2)).toBe(false);
    expect(isTechnical('约3.14倍', 2)).toBe(true);
  });
});
