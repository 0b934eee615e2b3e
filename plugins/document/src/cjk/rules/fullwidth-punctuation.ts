/**
 * `fullwidthPunctuation`: `, . ! ? ; :` become `，。！？；：` when they touch CJK —
 * a CJK letter (or a fullwidth closing bracket or clause mark) right before them, or a
 * CJK letter (or fullwidth opening bracket) right after. Only direct contact counts: a
 * mark separated from the CJK by a space is Western punctuation in Western text.
 *
 * Left alone: escaped marks, the dots of an ellipsis, an ordered-list number's dot,
 * and every mark inside a technical token (URL, e-mail, version, time, thousands,
 * domain, decimal) found by the Latin span scanner.
 */
import {
  CJK_CLOSING_BRACKETS,
  CJK_OPENING_BRACKETS,
  CJK_TERMINAL_PUNCTUATION,
  isAsciiDigit as isDigit,
  isCjkCodePoint,
} from '../char-classes.js';
import { isTechnicalMark } from '../latin-span-scanner.js';

/** Indexed by UTF-16 unit below `@`: the fullwidth form of `, . ! ? ; :`, or undefined. */
const FULLWIDTH: readonly (string | undefined)[] = (() => {
  const table: (string | undefined)[] = new Array<string | undefined>(0x40).fill(undefined);
  const pairs: Readonly<Record<string, string>> = {
    ',': '，',
    '.': '。',
    '!': '！',
    '?': '？',
    ';': '；',
    ':': '：',
  };
  for (const [half, full] of Object.entries(pairs)) table[half.charCodeAt(0)] = full;
  return table;
})();

const codes = (chars: string) => new Set([...chars].map((char) => char.charCodeAt(0)));
/** What may stand right before a mark for it to be in CJK context, besides a CJK letter. */
const CJK_BEFORE = codes(CJK_CLOSING_BRACKETS + CJK_TERMINAL_PUNCTUATION);
/** What may stand right after it, besides a CJK letter. */
const CJK_AFTER = codes(CJK_OPENING_BRACKETS);

/** The marks `FULLWIDTH` has a form for, one unit each (no `u` flag: `lastIndex` counts units). */
const MARK = /[,.!?;:]/g;
const DOT = 0x2e;
const BACKSLASH = 0x5c;

export function normalizeFullwidthPunctuation(text: string): string {
  // Built by `+=`, like the document's rebuild: no array of parts (issue 18).
  let result = '';
  let cursor = -1;
  let lastConverted = -2;
  // The engine finds each mark (`test` on a global pattern moves `lastIndex` and builds no
  // match object), and its neighbours are read as units: faster than a loop over every
  // unit of a sliced string, and no one-character string per mark (issue 18).
  MARK.lastIndex = 0;
  while (MARK.test(text)) {
    const index = MARK.lastIndex - 1;
    const unit = text.charCodeAt(index);
    const full = FULLWIDTH[unit];
    if (full === undefined || text.charCodeAt(index - 1) === BACKSLASH) continue;
    if (unit === DOT && (text.charCodeAt(index - 1) === DOT || text.charCodeAt(index + 1) === DOT)) continue;
    if (unit === DOT && isOrderedListNumber(text, index)) continue;
    // The left neighbour is read from the output: in `中,,` the second comma follows a
    // `，` once the first is converted, so one scan settles the whole run.
    const leftIsCjk = lastConverted === index - 1 || cjkBefore(text, index);
    if (!leftIsCjk && !cjkAfter(text, index + 1)) continue;
    if (isTechnicalMark(text, index)) continue;
    result += text.slice(cursor < 0 ? 0 : cursor, index) + full;
    cursor = index + 1;
    lastConverted = index;
  }
  return cursor < 0 ? text : result + text.slice(cursor);
}

function cjkBefore(text: string, index: number): boolean {
  if (index === 0) return false;
  const unit = text.charCodeAt(index - 1);
  if (CJK_BEFORE.has(unit)) return true;
  const code = unit >= 0xdc00 && unit <= 0xdfff && index >= 2 ? (text.codePointAt(index - 2) ?? unit) : unit;
  return isCjkCodePoint(code);
}

function cjkAfter(text: string, index: number): boolean {
  const code = text.codePointAt(index);
  return code !== undefined && (CJK_AFTER.has(code) || isCjkCodePoint(code));
}

/** `1.` or `  12.` at the start of a line: an ordered-list number the parser did not claim. */
function isOrderedListNumber(text: string, dot: number): boolean {
  let index = dot - 1;
  if (!isDigit(text.charCodeAt(index))) return false;
  while (index >= 0 && isDigit(text.charCodeAt(index))) index--;
  while (index >= 0 && (text.charCodeAt(index) === 0x20 || text.charCodeAt(index) === 0x09)) index--;
  return index < 0 || text.charCodeAt(index) === 0x0a;
}
