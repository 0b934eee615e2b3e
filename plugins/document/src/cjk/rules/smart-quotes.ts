/**
 * `smartQuoteConversion`: straight quotes become typographic ones, pair by pair.
 *
 * Which glyphs a pair gets (§6, with `quoteStyle` and the two flags):
 * - a pair that involves CJK (CJK inside, or a CJK letter touching it outside) takes
 *   corner brackets 「」/『』 when `cjkCornerQuotes` is on or `quoteStyle` is `corner`
 *   AND the quoted text holds a Chinese character (U+4E00–U+9FFF) — kana-only or
 *   Hangul-only text keeps “”, as in the original; otherwise the style's glyphs
 *   (curly “” ‘’, or guillemets « » ‹ ›);
 * - a pure-Latin pair stays straight when `contextualQuotes` is on, else takes the
 *   style's glyphs (curly for `corner`: corner brackets are for Chinese text).
 *
 * Only straight quotes are rewritten, plus curly → corner where corner brackets apply.
 * A curly quote the author typed is never turned back into a straight one.
 */
import { charAt, charBefore, isCjkCodePoint, isCjkLetter } from '../char-classes.js';
import { isTechnical } from '../latin-span-scanner.js';
import type { CjkFormattingSettings } from '../settings.js';
import { pairQuotes, type QuoteKind, type QuotePair } from './quote-pairing.js';

type QuoteSettings = Pick<CjkFormattingSettings, 'quoteStyle' | 'contextualQuotes' | 'cjkCornerQuotes'>;
type Glyphs = Readonly<Record<QuoteKind, readonly [string, string]>>;

const CURLY: Glyphs = { double: ['“', '”'], single: ['‘', '’'] };
const CORNER: Glyphs = { double: ['「', '」'], single: ['『', '』'] };
const GUILLEMETS: Glyphs = { double: ['«', '»'], single: ['‹', '›'] };

const HAS_QUOTE = /["'“”‘’]/;

export function convertSmartQuotes(text: string, settings: QuoteSettings): string {
  if (!HAS_QUOTE.test(text)) return text;
  const pairs = pairQuotes(text, (index) => isTechnical(text, index));
  if (pairs.length === 0) return text;
  const replacements = new Map<number, string>();
  for (const pair of pairs) {
    const glyphs = glyphsFor(text, pair, settings);
    if (!glyphs) continue;
    const [open, close] = glyphs[pair.kind];
    setGlyph(text, pair.open, open, glyphs, replacements);
    setGlyph(text, pair.close, close, glyphs, replacements);
  }
  if (replacements.size === 0) return text;
  const positions = [...replacements.keys()].sort((a, b) => a - b);
  const parts: string[] = [];
  let cursor = 0;
  for (const position of positions) {
    parts.push(text.slice(cursor, position), replacements.get(position) ?? text.charAt(position));
    cursor = position + 1;
  }
  parts.push(text.slice(cursor));
  return parts.join('');
}

function glyphsFor(text: string, pair: QuotePair, settings: QuoteSettings): Glyphs | null {
  const involvesCjk =
    isCjkLetter(charBefore(text, pair.open)) ||
    isCjkLetter(charAt(text, pair.close + 1)) ||
    someCodePoint(text, pair.open + 1, pair.close, isCjkCodePoint);
  const style = settings.quoteStyle === 'guillemets' ? GUILLEMETS : CURLY;
  if (involvesCjk) {
    const corner = settings.cjkCornerQuotes || settings.quoteStyle === 'corner';
    return corner && someCodePoint(text, pair.open + 1, pair.close, isChinese) ? CORNER : style;
  }
  return settings.contextualQuotes ? null : style;
}

function setGlyph(
  text: string,
  index: number,
  glyph: string,
  glyphs: Glyphs,
  into: Map<number, string>,
): void {
  const current = text.charAt(index);
  const straight = current === '"' || current === "'";
  if (straight || (glyphs === CORNER && current !== glyph)) into.set(index, glyph);
}

/** Chinese characters: what corner brackets are for (U+4E00–U+9FFF). */
function isChinese(code: number): boolean {
  return code >= 0x4e00 && code <= 0x9fff;
}

/** Whether a code point of `text[from, to)` satisfies `test` (stops at the first). */
function someCodePoint(text: string, from: number, to: number, test: (code: number) => boolean): boolean {
  for (let index = from; index < to; index++) {
    const code = text.codePointAt(index) ?? 0;
    if (test(code)) return true;
    if (code > 0xffff) index++;
  }
  return false;
}
