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
  isCjkCodePoint,
} from '../char-classes.js';
import { technicalMask } from '../latin-span-scanner.js';

const FULLWIDTH: Readonly<Record<string, string>> = {
  ',': '，',
  '.': '。',
  '!': '！',
  '?': '？',
  ';': '；',
  ':': '：',
};

/** Indexed by UTF-16 unit below `@`: whether it is one of `, . ! ? ; :`. */
const IS_CANDIDATE = new Uint8Array(0x40);
for (const char of Object.keys(FULLWIDTH)) IS_CANDIDATE[char.charCodeAt(0)] = 1;

const codes = (chars: string) => new Set([...chars].map((char) => char.charCodeAt(0)));
/** What may stand right before a mark for it to be in CJK context, besides a CJK letter. */
const CJK_BEFORE = codes(CJK_CLOSING_BRACKETS + CJK_TERMINAL_PUNCTUATION);
/** What may stand right after it, besides a CJK letter. */
const CJK_AFTER = codes(CJK_OPENING_BRACKETS);

export function normalizeFullwidthPunctuation(text: string): string {
  const parts: string[] = [];
  let cursor = 0;
  let lastConverted = -2;
  let mask: Uint8Array | undefined;
  // A loop over the units rather than `matchAll`: no match object per mark (issue 18).
  for (let index = 0; index < text.length; index++) {
    const unit = text.charCodeAt(index);
    if (unit > 0x3f || !IS_CANDIDATE[unit]) continue;
    const char = text.charAt(index);
    const full = FULLWIDTH[char];
    if (full === undefined || text.charAt(index - 1) === '\\') continue;
    if (char === '.' && (text.charAt(index - 1) === '.' || text.charAt(index + 1) === '.')) continue;
    if (char === '.' && isOrderedListNumber(text, index)) continue;
    // The left neighbour is read from the output: in `中,,` the second comma follows a
    // `，` once the first is converted, so one scan settles the whole run.
    const leftIsCjk = lastConverted === index - 1 || cjkBefore(text, index);
    if (!leftIsCjk && !cjkAfter(text, index + 1)) continue;
    mask ??= technicalMask(text);
    if (mask[index] === 1) continue;
    parts.push(text.slice(cursor, index), full);
    cursor = index + 1;
    lastConverted = index;
  }
  if (parts.length === 0) return text;
  parts.push(text.slice(cursor));
  return parts.join('');
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
  if (!/[0-9]/.test(text.charAt(index))) return false;
  while (index >= 0 && /[0-9]/.test(text.charAt(index))) index--;
  while (index >= 0 && (text.charAt(index) === ' ' || text.charAt(index) === '\t')) index--;
  return index < 0 || text.charAt(index) === '\n';
}
