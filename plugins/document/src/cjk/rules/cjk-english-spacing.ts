/**
 * `cjkEnglishSpacing`: one space between CJK and a Latin word or a number
 * (`学习Python编程` → `学习 Python 编程`, `共100个` → `共 100 个`).
 *
 * A number keeps what belongs to it on its side of the space: a sign (`增长-5%`), a
 * currency symbol before it (`价格$100元` → `价格 $100 元`), a unit after it
 * (`50%`, `25℃`, `30°`). A hyphen or plus that is not a sign stays attached
 * (`中文-Web`). Korean is left alone: it is written with spaces between words and
 * particles attach to a Latin word (`VMark에는`).
 */
import { isCjkCodePoint } from '../char-classes.js';
import { CJK } from './patterns.js';

const SIGN = '[-+−±－＋]';
const CURRENCY = '[$¥€£₹]';

/** What may follow a CJK letter and start a Latin word or a number. */
const WORD_START = `[A-Za-z0-9]|${CURRENCY} ?(?:${SIGN}?[0-9]|[A-Za-z])|${SIGN}(?:${CURRENCY} ?)?[0-9]`;
const CJK_THEN_WORD = new RegExp(`(${CJK})(?=${WORD_START})`, 'gu');
const WORD_THEN_CJK = new RegExp(`([A-Za-z0-9](?:[%‰℃℉]|°[CcFf]?)?)(?=${CJK})`, 'gu');

/** The rule as its two patterns: the specification `addCjkEnglishSpacing` is checked against. */
export function addCjkEnglishSpacingByPattern(text: string): string {
  return text.replace(CJK_THEN_WORD, '$1 ').replace(WORD_THEN_CJK, '$1 ');
}

/**
 * The same two replacements as `addCjkEnglishSpacingByPattern`, each as one scan over the
 * UTF-16 units (the hottest rule of the chain, issue 18): first a space after every CJK
 * letter that a word start follows, then, over that result, after every alphanumeric
 * (with its unit) that a CJK letter follows.
 */
export function addCjkEnglishSpacing(text: string): string {
  return spaceWordThenCjk(spaceCjkThenWord(text));
}

function spaceCjkThenWord(text: string): string {
  let parts: string[] | undefined;
  let cursor = 0;
  for (let index = 0; index < text.length; index++) {
    const unit = text.charCodeAt(index);
    if (unit < 0x3040) continue;
    const code = unit >= 0xd800 && unit <= 0xdbff ? (text.codePointAt(index) ?? unit) : unit;
    const after = code > 0xffff ? index + 2 : index + 1;
    if (isCjkCodePoint(code) && startsWord(text, after)) {
      (parts ??= []).push(text.slice(cursor, after), ' ');
      cursor = after;
    }
    index = after - 1;
  }
  if (!parts) return text;
  parts.push(text.slice(cursor));
  return parts.join('');
}

function spaceWordThenCjk(text: string): string {
  let parts: string[] | undefined;
  let cursor = 0;
  for (let index = 0; index < text.length; index++) {
    if (!isAsciiAlphanumeric(text.charCodeAt(index))) continue;
    const end = wordEndBeforeCjk(text, index + 1);
    if (end === -1) continue;
    (parts ??= []).push(text.slice(cursor, end), ' ');
    cursor = end;
    index = end - 1;
  }
  if (!parts) return text;
  parts.push(text.slice(cursor));
  return parts.join('');
}

/** `WORD_START` at `at`: a letter or digit, a currency symbol before an amount or word, a sign before one. */
function startsWord(text: string, at: number): boolean {
  const unit = text.charCodeAt(at);
  if (isAsciiAlphanumeric(unit)) return true;
  if (isCurrency(unit)) {
    return (text.charCodeAt(at + 1) === 0x20 && amountOrWord(text, at + 2)) || amountOrWord(text, at + 1);
  }
  if (isSign(unit)) {
    const next = text.charCodeAt(at + 1);
    if (isCurrency(next)) {
      return (
        (text.charCodeAt(at + 2) === 0x20 && isDigit(text.charCodeAt(at + 3))) ||
        isDigit(text.charCodeAt(at + 2))
      );
    }
    return isDigit(next);
  }
  return false;
}

/** What follows a currency symbol in `WORD_START`: an optionally signed digit, or a letter. */
function amountOrWord(text: string, at: number): boolean {
  const unit = text.charCodeAt(at);
  return isDigit(unit) || isAsciiLetter(unit) || (isSign(unit) && isDigit(text.charCodeAt(at + 1)));
}

/**
 * Where `WORD_THEN_CJK`'s match that starts at an alphanumeric ending at `at - 1` ends,
 * or -1: the unit after it is tried longest first, as the pattern backtracks.
 */
function wordEndBeforeCjk(text: string, at: number): number {
  const unit = text.charCodeAt(at);
  if (unit === 0x25 || unit === 0x2030 || unit === 0x2103 || unit === 0x2109) {
    if (cjkAt(text, at + 1)) return at + 1;
  } else if (unit === 0xb0) {
    const letter = text.charCodeAt(at + 1);
    if ((letter === 0x43 || letter === 0x63 || letter === 0x46 || letter === 0x66) && cjkAt(text, at + 2)) {
      return at + 2;
    }
    if (cjkAt(text, at + 1)) return at + 1;
  }
  return cjkAt(text, at) ? at : -1;
}

function cjkAt(text: string, at: number): boolean {
  const code = text.codePointAt(at);
  return code !== undefined && isCjkCodePoint(code);
}

function isAsciiAlphanumeric(unit: number): boolean {
  return isDigit(unit) || isAsciiLetter(unit);
}

function isAsciiLetter(unit: number): boolean {
  return (unit >= 0x41 && unit <= 0x5a) || (unit >= 0x61 && unit <= 0x7a);
}

function isDigit(unit: number): boolean {
  return unit >= 0x30 && unit <= 0x39;
}

/** `[$¥€£₹]` */
function isCurrency(unit: number): boolean {
  return unit === 0x24 || unit === 0xa5 || unit === 0x20ac || unit === 0xa3 || unit === 0x20b9;
}

/** `[-+−±－＋]` */
function isSign(unit: number): boolean {
  return (
    unit === 0x2d || unit === 0x2b || unit === 0x2212 || unit === 0xb1 || unit === 0xff0d || unit === 0xff0b
  );
}
