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
import { isAsciiAlnum, isAsciiDigit, isCjkCodePoint } from '../char-classes.js';

/*
 * Where a space goes, as patterns: `(?<=CJK)(?=WORD_START)|(?<=WORD_END)(?=CJK)`, with
 *   WORD_START = [A-Za-z0-9] | CURRENCY ' '? (SIGN? [0-9] | [A-Za-z]) | SIGN (CURRENCY ' '?)? [0-9]
 *   WORD_END   = [A-Za-z0-9] ([%‰℃℉] | °[CcFf]?)?
 * (SIGN `-+−±－＋`, CURRENCY `$¥€£₹`): after a CJK letter that a word follows, and before
 * a CJK letter that a word (or a number's unit) ends right before — exactly where the two
 * replaces `(CJK)(?=WORD_START)` → `$1 ` and then `(WORD_END)(?=CJK)` → `$1 ` put theirs
 * (the first only adds a space after a CJK letter, which is inside no WORD_END before a
 * CJK letter; no place has a CJK letter and a word's end both right before it; ADR 90).
 * Read here unit by unit, one walk over code points: a pattern of empty matches behind
 * look-behinds is tried at every position, and cost more (issue 18; the test holds the
 * walk to the two replaces).
 */

const isSign = (unit: number): boolean =>
  unit === 0x2d || unit === 0x2b || unit === 0x2212 || unit === 0xb1 || unit === 0xff0d || unit === 0xff0b;
const isCurrency = (unit: number): boolean =>
  unit === 0x24 || unit === 0xa5 || unit === 0x20ac || unit === 0xa3 || unit === 0x20b9;
/** `%‰℃℉°`: what a number's unit may end with before the CJK letter (`°C` ends in a letter). */
const isUnitEnd = (unit: number): boolean =>
  unit === 0x25 || unit === 0x2030 || unit === 0x2103 || unit === 0x2109 || unit === 0xb0;
const SPACE = 0x20;

/** Whether WORD_START matches at `index`, whose unit is `unit`. */
function wordStartsAt(text: string, index: number, unit: number): boolean {
  if (isAsciiAlnum(unit)) return true;
  if (isCurrency(unit)) {
    // The optional space is taken when there: backing off leaves a space, which nothing matches.
    const at = text.charCodeAt(index + 1) === SPACE ? index + 2 : index + 1;
    const next = text.charCodeAt(at);
    // A sign with no digit after it is no letter or digit either.
    return isSign(next) ? isAsciiDigit(text.charCodeAt(at + 1)) : isAsciiAlnum(next);
  }
  if (!isSign(unit)) return false;
  const next = text.charCodeAt(index + 1);
  if (isAsciiDigit(next)) return true;
  if (!isCurrency(next)) return false;
  const at = text.charCodeAt(index + 2) === SPACE ? index + 3 : index + 2;
  return isAsciiDigit(text.charCodeAt(at));
}

/** Whether WORD_END ends right before `index` (past the start, `charCodeAt` is NaN). */
function wordEndsBefore(text: string, index: number): boolean {
  const unit = text.charCodeAt(index - 1);
  return isAsciiAlnum(unit) || (isUnitEnd(unit) && isAsciiAlnum(text.charCodeAt(index - 2)));
}

export function addCjkEnglishSpacing(text: string): string {
  let result = '';
  let cursor = 0;
  // Whether the code point that ends at `index` is a CJK letter.
  let afterCjk = false;
  for (let index = 0; index < text.length; index++) {
    const unit = text.charCodeAt(index);
    let code = unit;
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const low = text.charCodeAt(index + 1);
      if (low >= 0xdc00 && low <= 0xdfff) code = (unit - 0xd800) * 0x400 + (low - 0xdc00) + 0x10000;
    }
    const cjk = isCjkCodePoint(code);
    // A CJK letter starts no word, and one right before ends none: each place asks one side.
    if (cjk ? !afterCjk && wordEndsBefore(text, index) : afterCjk && wordStartsAt(text, index, unit)) {
      // No space goes at 0 (nothing is before it), so `cursor` 0 means none went in.
      result += text.slice(cursor, index) + ' ';
      cursor = index;
    }
    afterCjk = cjk;
    if (code > 0xffff) index++;
  }
  return cursor === 0 ? text : result + text.slice(cursor);
}
