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
import { isCjkCodePoint } from '../char-classes.js';
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
  // The quotes to replace and their glyphs, side by side; each quote is in one pair at most.
  const positions: number[] = [];
  const replacements: string[] = [];
  let ordered = true;
  const replace = (index: number, glyph: string, glyphs: Glyphs): void => {
    const current = text.charCodeAt(index);
    const straight = current === 0x22 || current === 0x27;
    if (!straight && (glyphs !== CORNER || current === glyph.charCodeAt(0))) return;
    if (positions.length > 0 && positions[positions.length - 1]! > index) ordered = false;
    positions.push(index);
    replacements.push(glyph);
  };
  for (const pair of pairs) {
    const glyphs = glyphsFor(text, pair, settings);
    if (!glyphs) continue;
    const [open, close] = glyphs[pair.kind];
    replace(pair.open, open, glyphs);
    replace(pair.close, close, glyphs);
  }
  if (positions.length === 0) return text;
  // Pairs come by opener, so a nested pair's closer may come after a later position.
  const order = positions.map((_position, index) => index);
  if (!ordered) order.sort((a, b) => positions[a]! - positions[b]!);
  let result = '';
  let cursor = 0;
  for (const index of order) {
    const position = positions[index]!;
    result += text.slice(cursor, position) + replacements[index]!;
    cursor = position + 1;
  }
  return result + text.slice(cursor);
}

function glyphsFor(text: string, pair: QuotePair, settings: QuoteSettings): Glyphs | null {
  const involvesCjk =
    isCjkCodePoint(codePointBefore(text, pair.open)) ||
    isCjkCodePoint(text.codePointAt(pair.close + 1) ?? Number.NaN) ||
    someCodePoint(text, pair.open + 1, pair.close, isCjkCodePoint);
  const style = settings.quoteStyle === 'guillemets' ? GUILLEMETS : CURLY;
  if (involvesCjk) {
    const corner = settings.cjkCornerQuotes || settings.quoteStyle === 'corner';
    return corner && someCodePoint(text, pair.open + 1, pair.close, isChinese) ? CORNER : style;
  }
  return settings.contextualQuotes ? null : style;
}

/** The code point ending right before `index` (a surrogate pair joined), NaN at the start. */
function codePointBefore(text: string, index: number): number {
  const unit = text.charCodeAt(index - 1);
  if (unit >= 0xdc00 && unit <= 0xdfff && index >= 2) {
    const high = text.charCodeAt(index - 2);
    if (high >= 0xd800 && high <= 0xdbff) return text.codePointAt(index - 2)!;
  }
  return unit;
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
