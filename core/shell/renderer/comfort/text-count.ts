/*
 * The status bar's counts (ADR 72), as Typora and Obsidian count: a word is a run of letters or
 * digits (apostrophes inside it included: "don't" is one), except that every Chinese character,
 * kana and other ideograph is a word of its own; Hangul is written with spaces, so its runs are
 * words as Latin ones are. Characters are every character but white space (a CJK writer's count),
 * code points, so an astral character (𠀋, an emoji) is one. Counted on the Markdown as it is:
 * marks are punctuation and make no words, but are characters.
 */

export interface TextCount {
  readonly words: number;
  readonly characters: number;
}

const IDEOGRAPHIC = /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\u3005\u3007\u30FC]$/u;
const WORD_CHARACTER = /^[\p{L}\p{N}\p{M}]$/u;
const SPACE = /^\s$/u;

const OTHER = 1;
const WORD = 2;
const IDEOGRAPH = 3;
/** OTHER, WORD or IDEOGRAPH, plus SPACE_BIT for white space. */
const SPACE_BIT = 4;

function classify(character: string): number {
  if (IDEOGRAPHIC.test(character)) return IDEOGRAPH;
  if (WORD_CHARACTER.test(character)) return WORD;
  return SPACE.test(character) ? OTHER | SPACE_BIT : OTHER;
}

/**
 * Each UTF-16 unit's class, worked out by the regular expressions the first time it is met
 * (0: not yet): a 10 MB note is counted in a table look-up a character, not a Unicode
 * property match (the regular expression scan took seconds on one).
 */
const units = new Uint8Array(0x10000);
const astral = new Map<number, number>();

function classOf(text: string, at: number, code: number): number {
  if (code >= 0xd800 && code <= 0xdbff && at + 1 < text.length) {
    const low = text.charCodeAt(at + 1);
    if (low >= 0xdc00 && low <= 0xdfff) {
      const point = ((code - 0xd800) << 10) + (low - 0xdc00) + 0x10000;
      let known = astral.get(point);
      if (known === undefined) astral.set(point, (known = classify(String.fromCodePoint(point))));
      return known;
    }
  }
  let known = units[code]!;
  if (known === 0) units[code] = known = classify(String.fromCharCode(code));
  return known;
}

const APOSTROPHE = 0x27;
const RIGHT_QUOTE = 0x2019;

export function countText(text: string): TextCount {
  const length = text.length;
  let words = 0;
  let spaces = 0;
  let pairs = 0;
  /** Inside a word: the last character was a letter, digit or mark (not an ideograph). */
  let inWord = false;
  for (let at = 0; at < length;) {
    const code = text.charCodeAt(at);
    const cls = classOf(text, at, code);
    const width = code >= 0xd800 && code <= 0xdbff && isLow(text, at + 1) ? 2 : 1;
    if (width === 2) pairs += 1;
    const kind = cls & 3;
    if (kind === WORD) {
      if (!inWord) words += 1;
      inWord = true;
    } else {
      if (kind === IDEOGRAPH) words += 1;
      else if (cls & SPACE_BIT) spaces += 1;
      // An apostrophe between two letters keeps the word going: "don't" is one word.
      inWord =
        inWord &&
        (code === APOSTROPHE || code === RIGHT_QUOTE) &&
        at + 1 < length &&
        (classOf(text, at + 1, text.charCodeAt(at + 1)) & 3) === WORD;
    }
    at += width;
  }
  return { words, characters: length - spaces - pairs };
}

function isLow(text: string, at: number): boolean {
  const code = text.charCodeAt(at);
  return code >= 0xdc00 && code <= 0xdfff;
}

/** "1,234 words · 5,678 characters", the numbers in the page's locale. */
export function countLabel(count: TextCount, selected: boolean): string {
  const n = (value: number, one: string, many: string) =>
    `${value.toLocaleString()} ${value === 1 ? one : many}`;
  const words = `${n(count.words, 'word', 'words')} · ${n(count.characters, 'character', 'characters')}`;
  return selected ? `${words} selected` : words;
}
