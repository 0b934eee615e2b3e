/**
 * Character classes shared by the CJK transforms.
 *
 * Two families live here on purpose. The narrow transforms (`cjk-spacing`,
 * `cjk-punctuation`) are specified with one exact class, `CJK_RE` of the design notes
 * (§6), Hangul included; they must keep it byte for byte so that a document formats
 * the same way here as in the original editor. The full formatter (`cjk-format`)
 * instead works with "CJK letters without Korean": Korean is written with spaces
 * between words and with Western punctuation, so spacing and punctuation rules that
 * suit Chinese and Japanese would damage it.
 */

/** The class of §6, as a regex source: CJK Unified Ideographs, Hiragana, Katakana, Hangul syllables. */
export const NARROW_CJK_CLASS = '[\\u4E00-\\u9FFF\\u3040-\\u309F\\u30A0-\\u30FF\\uAC00-\\uD7AF]';

/** Whether a UTF-16 unit is an ASCII digit `[0-9]` (false for NaN, past a string's end). */
export const isAsciiDigit = (unit: number): boolean => unit >= 0x30 && unit <= 0x39;
/** Whether a UTF-16 unit is an ASCII letter `[A-Za-z]`. */
export const isAsciiLetter = (unit: number): boolean =>
  (unit >= 0x41 && unit <= 0x5a) || (unit >= 0x61 && unit <= 0x7a);
/** Whether a UTF-16 unit is `[A-Za-z0-9]`. */
export const isAsciiAlnum = (unit: number): boolean => isAsciiDigit(unit) || isAsciiLetter(unit);

/** Whether a UTF-16 unit is in `NARROW_CJK_CLASS` (all of it is in the BMP). */
export function isNarrowCjkUnit(unit: number): boolean {
  return (
    (unit >= 0x4e00 && unit <= 0x9fff) ||
    (unit >= 0x3040 && unit <= 0x30ff) ||
    (unit >= 0xac00 && unit <= 0xd7af)
  );
}

/**
 * Ranges (regex class body, for `u` regexes) of the letters the full formatter treats as
 * CJK: Han (basic, extension A, the supplementary-plane extensions and compatibility
 * ideographs), Bopomofo and Japanese kana. Hangul is deliberately absent (see above).
 */
export const CJK_LETTER_RANGES =
  '\\u4E00-\\u9FFF\\u3400-\\u4DBF\\uF900-\\uFAFF\\u3100-\\u312F\\u31A0-\\u31BF' +
  '\\u3040-\\u309F\\u30A0-\\u30FF\\u31F0-\\u31FF\\u{20000}-\\u{3134F}';

/**
 * Also CJK for the "does this segment contain CJK?" gate, and only for it: Hangul
 * (syllables and jamo), and fullwidth letters and digits (`Ａ１`), which only a CJK
 * input method produces — so a lone `３` is still normalized to `3`.
 */
const GATE_ONLY_RANGES =
  '\\uAC00-\\uD7AF\\u1100-\\u11FF\\u3130-\\u318F\\uFF10-\\uFF19\\uFF21-\\uFF3A\\uFF41-\\uFF5A';

const CONTAINS_CJK = new RegExp(`[${CJK_LETTER_RANGES}${GATE_ONLY_RANGES}]`, 'u');

/** Fullwidth marks that end a clause; punctuation next to them is in CJK context. */
export const CJK_TERMINAL_PUNCTUATION = '，。！？；：、';
/** Fullwidth closing brackets and corner quotes. */
export const CJK_CLOSING_BRACKETS = '》」』】）〉';
/** Fullwidth opening brackets and corner quotes. */
export const CJK_OPENING_BRACKETS = '《「『【（〈';

/** Whether the text holds any CJK (Hangul and fullwidth alphanumerics included): the gate of the CJK-only rules. */
export function containsCjk(text: string): boolean {
  return CONTAINS_CJK.test(text);
}

/** Whether a code point is a CJK letter (no Hangul): `CJK_LETTER_RANGES` as numbers, for hot loops. */
export function isCjkCodePoint(code: number): boolean {
  if (code < 0x3040) return false;
  if (code <= 0x30ff) return code >= 0x3040; // Hiragana, Katakana
  if (code < 0x4e00) {
    return (
      (code >= 0x3400 && code <= 0x4dbf) || // Han extension A
      (code >= 0x3100 && code <= 0x312f) || // Bopomofo
      (code >= 0x31a0 && code <= 0x31bf) || // Bopomofo extended
      (code >= 0x31f0 && code <= 0x31ff) // Katakana phonetic extensions
    );
  }
  if (code <= 0x9fff) return true; // CJK Unified Ideographs
  return (code >= 0xf900 && code <= 0xfaff) || (code >= 0x20000 && code <= 0x3134f);
}

/** Whether one code point (a string of one or two UTF-16 units) is a CJK letter (no Hangul). */
export function isCjkLetter(char: string): boolean {
  const code = char.codePointAt(0);
  return code !== undefined && char.length === (code > 0xffff ? 2 : 1) && isCjkCodePoint(code);
}

/** The code point that ends right before `index` ('' at the start), surrogate pairs joined. */
export function charBefore(text: string, index: number): string {
  if (index <= 0) return '';
  const low = text.charCodeAt(index - 1);
  if (low >= 0xdc00 && low <= 0xdfff && index >= 2) {
    const high = text.charCodeAt(index - 2);
    if (high >= 0xd800 && high <= 0xdbff) return text.slice(index - 2, index);
  }
  return text.charAt(index - 1);
}

/** The code point that starts at `index` ('' past the end), surrogate pairs joined. */
export function charAt(text: string, index: number): string {
  if (index >= text.length) return '';
  const high = text.charCodeAt(index);
  if (high >= 0xd800 && high <= 0xdbff && index + 1 < text.length) {
    const low = text.charCodeAt(index + 1);
    if (low >= 0xdc00 && low <= 0xdfff) return text.slice(index, index + 2);
  }
  return text.charAt(index);
}

/** Latin letters (ASCII and the Latin-1/Extended-A/B blocks): the side of an apostrophe. */
export function isLatinLetter(char: string): boolean {
  return /^[A-Za-z\u00C0-\u024F]$/.test(char);
}
