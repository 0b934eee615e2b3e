/**
 * The Latin span scanner: finds the technical tokens inside runs of ASCII text —
 * URLs, e-mail addresses, versions (`v1.2.3`), times (`12:30`), thousands (`1,000`),
 * domains and file names (`example.com`, `Node.js`), decimals (`3.14`) — so that the
 * punctuation rules leave their dots, colons and commas alone. File names and paths
 * that hold CJK (`notes/中文筆記.md`) are found over the whole text (`file-names.ts`).
 *
 * A span is a run of printable ASCII on one line; a CJK letter ends it, which is what
 * lets `访问https://example.com/docs获取` keep its URL without swallowing the Chinese.
 */

import { isAsciiAlnum as isAlnum, isAsciiDigit as isDigit } from './char-classes.js';
import { fileNameEnd, markFileNames, mayBeInFileName } from './file-names.js';

/**
 * What a span must hold for a token pattern to be tried on it (each pattern needs one):
 * found by `spanNeeds` in one walk over the span's units, without a regex or a slice.
 */
export const NEEDS_URL = 1; // `://` or `www.` (any case)
export const NEEDS_AT = 2; // `@`
export const NEEDS_DIGIT_DOT_DIGIT = 4; // `\d\.\d`
export const NEEDS_DIGIT_COLON_DIGIT = 8; // `\d:\d`
export const NEEDS_DIGIT_COMMA_DIGIT = 16; // `\d,\d`
export const NEEDS_ALNUM_DOT_ALNUM = 32; // `[a-zA-Z0-9]\.[a-zA-Z0-9]`

/**
 * The token patterns, each with what a span must hold before the pattern is run on it
 * (most spans are a word or two of prose and hold none of it).
 */
const TECHNICAL_TOKENS: readonly { pattern: RegExp; needs: number; url?: true }[] = [
  // URLs with a scheme, and bare www. hosts.
  { pattern: /\b(?:[a-z][a-z0-9+.-]*:\/\/|www\.)[^\s<>]+/gi, needs: NEEDS_URL, url: true },
  { pattern: /[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g, needs: NEEDS_AT },
  { pattern: /\b(?:v\d+(?:\.\d+)+|\d+(?:\.\d+){2,})\b/g, needs: NEEDS_DIGIT_DOT_DIGIT },
  { pattern: /\b\d{1,2}:\d{2}(?::\d{2})?\b/g, needs: NEEDS_DIGIT_COLON_DIGIT },
  { pattern: /\b\d{1,3}(?:,\d{3})+\b/g, needs: NEEDS_DIGIT_COMMA_DIGIT },
  // Domains and file names: dot-separated labels, two or more characters after the
  // first dot, ending in a letter (`example.com`, `Node.js`; not `e.g`, not `wait...ok`).
  {
    pattern: /\b[a-zA-Z][a-zA-Z0-9-]*\.(?=[a-zA-Z0-9-]{2})[a-zA-Z0-9-]+(?:\.[a-zA-Z0-9-]+)*(?<=[a-zA-Z])\b/g,
    needs: NEEDS_ALNUM_DOT_ALNUM,
  },
  { pattern: /\b\d+\.\d+\b/g, needs: NEEDS_DIGIT_DOT_DIGIT },
];

/**
 * Trailing characters that end a sentence rather than a URL (GFM's autolink rule):
 * `见 https://example.com/a.` keeps its final full stop convertible.
 */
const URL_TRAILER = /[?!.,:;*_~'"]+$/;

let lastText: string | undefined;
let lastMask: Uint8Array | undefined;

/**
 * A mask over `text`: 1 where a character belongs to a technical token. One pass to
 * find the spans, one regex pass per token kind inside each span, one for file names:
 * linear in the text. The rules ask `isTechnical` instead, which works out only what a
 * question needs; this whole-text form is its oracle (the tests hold one to the other).
 */
export function technicalMask(text: string): Uint8Array {
  if (text === lastText && lastMask) return lastMask;
  lastMask = scan(text);
  markFileNames(text, lastMask);
  lastText = text;
  return lastMask;
}

/** A unit a span is made of: printable ASCII or a tab. */
const isSpanUnit = (code: number) => (code >= 0x20 && code <= 0x7e) || code === 0x09;

function scan(text: string): Uint8Array {
  const mask = new Uint8Array(text.length);
  let start = -1;
  // Whether the span holds `.` `:` `,` or `@`, which every token pattern needs: a span
  // without one (most of them, a word or two of prose) is neither sliced nor matched.
  let marked = false;
  for (let index = 0; index <= text.length; index++) {
    const code = index < text.length ? text.charCodeAt(index) : 0x0a;
    if (isSpanUnit(code)) {
      if (start === -1) start = index;
      if (code === 0x2e || code === 0x3a || code === 0x2c || code === 0x40) marked = true;
    } else if (start !== -1) {
      if (marked) {
        const needs = spanNeeds(text, start, index);
        if (needs !== 0) markSpan(text.slice(start, index), start, mask, needs);
      }
      start = -1;
      marked = false;
    }
  }
  return mask;
}

// What `isTechnical` has worked out about the text it was last asked about: the span it
// last looked at (with its token mask, null when it holds no token), how far the file-name
// scan has come (the next dot to try, -1 past the last) and the names found so far, as
// [from, to) pairs in order.
let lookupText: string | undefined;
let spanFrom = 0;
let spanTo = 0;
let spanMask: Uint8Array | null = null;
let nextDot = -1;
const fileNames: number[] = [];

/**
 * Whether `text[index]` belongs to a technical token: `technicalMask(text)[index] === 1`,
 * without the whole mask. A span's tokens depend on the span alone (the patterns run on its
 * slice), so only the span holding `index` is scanned; a file name starts at a dot, so the
 * file-name scan only needs to have tried the dots up to `index`. The rules ask about a few
 * marks of a text (issue 18: the whole mask, rebuilt for each changed text, cost more than
 * the rules asking).
 */
export function isTechnical(text: string, index: number): boolean {
  if (text !== lookupText) {
    lookupText = text;
    spanFrom = spanTo = 0;
    spanMask = null;
    nextDot = text.indexOf('.');
    fileNames.length = 0;
  }
  return inTechnicalSpan(text, index) || inFileName(text, index);
}

/**
 * `isTechnical` for one of `, . ! ? ; :`, answered without a scan where the mark is at an
 * edge of its span (where a mark touching CJK mostly is; issue 18). No token ends with a
 * mark (a URL's trailing marks are trimmed; the others end in a letter or digit), and only
 * an e-mail address starts with one, a dot. A file name holds none of `, ! ? ; :`, and no
 * dot before a unit that is not printable ASCII: none starts there (its next unit must be
 * a letter, digit, `_`, `.` or a separator) and none runs through it (the only dot a match
 * takes after its first is that of `../`, before a separator). The test holds it to
 * `isTechnical` at every mark.
 */
export function isTechnicalMark(text: string, index: number): boolean {
  if (!isSpanUnit(text.charCodeAt(index + 1))) return false;
  if (text.charCodeAt(index) !== 0x2e && (index === 0 || !isSpanUnit(text.charCodeAt(index - 1)))) {
    return false;
  }
  return isTechnical(text, index);
}

function inTechnicalSpan(text: string, index: number): boolean {
  if (index < spanFrom || index >= spanTo) {
    if (!isSpanUnit(text.charCodeAt(index))) return false;
    let from = index;
    while (from > 0 && isSpanUnit(text.charCodeAt(from - 1))) from--;
    let to = index + 1;
    while (to < text.length && isSpanUnit(text.charCodeAt(to))) to++;
    spanFrom = from;
    spanTo = to;
    const needs = spanNeeds(text, from, to);
    spanMask = needs === 0 ? null : new Uint8Array(to - from);
    if (spanMask) markSpan(text.slice(from, to), 0, spanMask, needs);
  }
  return spanMask !== null && spanMask[index - spanFrom] === 1;
}

function inFileName(text: string, index: number): boolean {
  // A comma, colon, quote or parenthesis is in no file name: no scan.
  if (!mayBeInFileName(text.charCodeAt(index))) return false;
  while (nextDot !== -1 && nextDot <= index) {
    const end = fileNameEnd(text, nextDot);
    if (end !== -1) fileNames.push(nextDot, end);
    nextDot = text.indexOf('.', end !== -1 ? end : nextDot + 1);
  }
  // The pairs are ordered and disjoint: only the last one starting at or before `index` can hold it.
  for (let pair = fileNames.length - 2; pair >= 0; pair -= 2) {
    if (fileNames[pair]! <= index) return index < fileNames[pair + 1]!;
  }
  return false;
}

/** ASCII lower case of a unit (other units as they are). */
const lower = (code: number) => (code >= 0x41 && code <= 0x5a ? code + 0x20 : code);

/**
 * The `NEEDS_*` bits `text[from, to)` satisfies: exactly the substrings each bit names
 * (the test holds them to the regular expressions they replace).
 */
export function spanNeeds(text: string, from: number, to: number): number {
  let needs = 0;
  for (let index = from; index < to; index++) {
    const code = text.charCodeAt(index);
    if (code === 0x40) {
      needs |= NEEDS_AT;
      continue;
    }
    if (code !== 0x2e && code !== 0x3a && code !== 0x2c) continue;
    const before = index > from ? text.charCodeAt(index - 1) : -1;
    const after = index + 1 < to ? text.charCodeAt(index + 1) : -1;
    if (isDigit(before) && isDigit(after)) {
      needs |=
        code === 0x2e
          ? NEEDS_DIGIT_DOT_DIGIT
          : code === 0x3a
            ? NEEDS_DIGIT_COLON_DIGIT
            : NEEDS_DIGIT_COMMA_DIGIT;
    }
    if (code === 0x2e) {
      if (isAlnum(before) && isAlnum(after)) needs |= NEEDS_ALNUM_DOT_ALNUM;
      if (
        index - 3 >= from &&
        lower(text.charCodeAt(index - 3)) === 0x77 &&
        lower(text.charCodeAt(index - 2)) === 0x77 &&
        lower(before) === 0x77
      ) {
        needs |= NEEDS_URL;
      }
    } else if (code === 0x3a && after === 0x2f && index + 2 < to && text.charCodeAt(index + 2) === 0x2f) {
      needs |= NEEDS_URL;
    }
  }
  return needs;
}

function markSpan(span: string, offset: number, mask: Uint8Array, needs: number): void {
  for (const token of TECHNICAL_TOKENS) {
    if ((needs & token.needs) === 0) continue;
    const { pattern, url } = token;
    pattern.lastIndex = 0;
    for (let match = pattern.exec(span); match; match = pattern.exec(span)) {
      const found = url ? trimUrl(match[0]) : match[0];
      mask.fill(1, offset + match.index, offset + match.index + found.length);
    }
  }
}

/** Drops sentence punctuation and an unbalanced closing parenthesis from a URL's end. */
function trimUrl(url: string): string {
  let trimmed = url;
  for (;;) {
    const before = trimmed;
    trimmed = trimmed.replace(URL_TRAILER, '');
    if (trimmed.endsWith(')')) {
      const opens = trimmed.split('(').length - 1;
      const closes = trimmed.split(')').length - 1;
      if (closes > opens) trimmed = trimmed.slice(0, -1);
    }
    if (trimmed === before) return trimmed;
  }
}

/** Whether any character of `[from, to)` is technical. */
export function masked(mask: Uint8Array, from: number, to: number): boolean {
  for (let index = from; index < to; index++) if (mask[index] === 1) return true;
  return false;
}
