/**
 * `pairQuotes` and `convertSmartQuotes` read neighbours as UTF-16 units (issue 18); here
 * they are held to the pairing and conversion that read them as characters, spelled out
 * as they were, on random texts: quotes of every kind, the units around them that decide
 * (Latin-1 and Extended letters and one past them, digits, every kind of `\s`, brackets,
 * clause marks), CJK of both planes, Hangul, lone surrogates and technical tokens.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { charAt, charBefore, isCjkCodePoint, isCjkLetter, isLatinLetter } from '../char-classes.js';
import { isTechnical } from '../latin-span-scanner.js';
import { DEFAULT_CJK_FORMATTING, type CjkFormattingSettings } from '../settings.js';
import { pairQuotes, type QuoteKind, type QuotePair } from './quote-pairing.js';
import { convertSmartQuotes } from './smart-quotes.js';

type Token = { index: number; kind: QuoteKind; role: 'open' | 'close' };

const OPEN_CONTEXT = '([{（【《〈「『“‘';
const CLOSE_CONTEXT = ')]}）】》〉」』”’，。！？；：、.,!?;:';

function referencePairs(text: string, skip: (index: number) => boolean = () => false): QuotePair[] {
  const stacks: Record<QuoteKind, Token[]> = { double: [], single: [] };
  const pairs: QuotePair[] = [];
  for (const match of text.matchAll(/["'“”‘’]/g)) {
    const index = match.index;
    if (skip(index)) continue;
    const token = classify(text, index, match[0], stacks);
    if (!token) continue;
    const stack = stacks[token.kind];
    if (token.role === 'open') {
      stack.push(token);
      continue;
    }
    const opener = stack.pop();
    if (!opener) continue;
    const other = stacks[token.kind === 'double' ? 'single' : 'double'];
    while (other.length > 0 && (other[other.length - 1]?.index ?? -1) > opener.index) other.pop();
    pairs.push({ open: opener.index, close: index, kind: token.kind });
  }
  return pairs.sort((a, b) => a.open - b.open);
}

function classify(
  text: string,
  index: number,
  char: string,
  stacks: Record<QuoteKind, Token[]>,
): Token | null {
  const kind: QuoteKind = char === '"' || char === '“' || char === '”' ? 'double' : 'single';
  const before = charBefore(text, index);
  const after = charAt(text, index + 1);
  const hasOpen = stacks[kind].length > 0;
  if (kind === 'single' && char !== '‘') {
    if (isLatinLetter(before) && (isLatinLetter(after) || !hasOpen)) return null;
    if (/[0-9]/.test(after) && /[0-9]/.test(charAt(text, index + 2)) && !/[0-9]/.test(before)) return null;
  }
  if (char !== '“' && char !== '‘' && /[0-9]/.test(before) && !hasOpen) return null;
  if (char === '“' || char === '‘') return { index, kind, role: 'open' };
  if (char === '”' || char === '’') return { index, kind, role: 'close' };
  const opensHere = before === '' || /\s/.test(before) || OPEN_CONTEXT.includes(before);
  const closesHere = after === '' || /\s/.test(after) || CLOSE_CONTEXT.includes(after);
  if (opensHere && !closesHere) return { index, kind, role: 'open' };
  if (closesHere && !opensHere) return { index, kind, role: 'close' };
  return { index, kind, role: hasOpen ? 'close' : 'open' };
}

type QuoteSettings = Pick<CjkFormattingSettings, 'quoteStyle' | 'contextualQuotes' | 'cjkCornerQuotes'>;
type Glyphs = Readonly<Record<QuoteKind, readonly [string, string]>>;
const CURLY: Glyphs = { double: ['“', '”'], single: ['‘', '’'] };
const CORNER: Glyphs = { double: ['「', '」'], single: ['『', '』'] };
const GUILLEMETS: Glyphs = { double: ['«', '»'], single: ['‹', '›'] };

function referenceConvert(text: string, settings: QuoteSettings): string {
  const pairs = referencePairs(text, (index) => isTechnical(text, index));
  const replacements = new Map<number, string>();
  for (const pair of pairs) {
    const someCode = (test: (code: number) => boolean) =>
      [...text.slice(pair.open + 1, pair.close)].some((char) => test(char.codePointAt(0)!));
    const involvesCjk =
      isCjkLetter(charBefore(text, pair.open)) ||
      isCjkLetter(charAt(text, pair.close + 1)) ||
      someCode(isCjkCodePoint);
    const style = settings.quoteStyle === 'guillemets' ? GUILLEMETS : CURLY;
    const corner = settings.cjkCornerQuotes || settings.quoteStyle === 'corner';
    const glyphs = involvesCjk
      ? corner && someCode((code) => code >= 0x4e00 && code <= 0x9fff)
        ? CORNER
        : style
      : settings.contextualQuotes
        ? null
        : style;
    if (!glyphs) continue;
    const [open, close] = glyphs[pair.kind];
    for (const [index, glyph] of [
      [pair.open, open],
      [pair.close, close],
    ] as const) {
      const current = text.charAt(index);
      if (current === '"' || current === "'" || (glyphs === CORNER && current !== glyph)) {
        replacements.set(index, glyph);
      }
    }
  }
  // Unit by unit: every quote is one unit, and every unit not replaced is kept.
  return Array.from(
    { length: text.length },
    (_unit, index) => replacements.get(index) ?? text.charAt(index),
  ).join('');
}

const UNITS = [
  '"',
  "'",
  '“',
  '”',
  '‘',
  '’',
  '‚',
  '‛',
  '"',
  "'",
  'a',
  'Z',
  'é',
  'ǿ',
  'ɐ',
  '@',
  '0',
  '9',
  '5',
  ' ',
  '\t',
  '\n',
  '\u00a0',
  '\u3000',
  '\u2028',
  '\ufeff',
  '\u200b',
  '\u1680',
  '(',
  ')',
  '[',
  '】',
  '「',
  '」',
  '（',
  '，',
  '。',
  '.',
  ',',
  '!',
  ':',
  '/',
  '中',
  '文',
  'あ',
  '한',
  '𠀀',
  '😀',
  '\uD800',
  '\uDC00',
  '㐀',
  'http://x.io/a',
  'v1.2',
  'a.txt',
  "don't",
  '12:30',
];

// Half of the picks are quotes or CJK, so nested and converted pairs are common.
const texts = fc
  .array(
    fc.oneof(fc.constantFrom(...UNITS), fc.constantFrom('"', "'", '“', '”', '‘', '’', '中', ' 中', '中 ')),
    { maxLength: 24 },
  )
  .map((units) => units.join(''));

const settings = fc.record({
  quoteStyle: fc.constantFrom('curly' as const, 'corner' as const, 'guillemets' as const),
  contextualQuotes: fc.boolean(),
  cjkCornerQuotes: fc.boolean(),
});

describe('quote pairing and conversion by units', () => {
  it('pairs as the character-reading pairing does', () => {
    fc.assert(
      fc.property(texts, fc.nat(30), (text, skipAt) => {
        expect(pairQuotes(text)).toEqual(referencePairs(text));
        const skip = (index: number) => index === skipAt;
        expect(pairQuotes(text, skip)).toEqual(referencePairs(text, skip));
      }),
      { numRuns: 5000 },
    );
  });

  it('converts as the character-reading conversion does', () => {
    fc.assert(
      fc.property(texts, settings, (text, chosen) => {
        const all = { ...DEFAULT_CJK_FORMATTING, ...chosen };
        expect(convertSmartQuotes(text, all)).toBe(referenceConvert(text, all));
      }),
      { numRuns: 5000 },
    );
  });
});
