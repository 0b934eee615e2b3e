/**
 * `cjkEnglishSpacing`: one space between CJK and a Latin word or a number
 * (`学习Python编程` → `学习 Python 编程`, `共100个` → `共 100 个`).
 *
 * A number keeps what belongs to it on its side of the space: a sign (`增长-5%`), a
 * currency symbol before it (`价格$100元` → `价格 $100 元`), a unit after it
 * (`50%`, `25℃`, `30°`). A hyphen or plus that is not a sign stays attached
 * (`中文-Web`). Korean is left alone: it is written with spaces between words and
 * particles attach to a Latin word (`VMark에는`).
 *
 * The rule was written as two regular expressions, run one after the other (they are kept,
 * as the specification, in the test, which holds this scan to them):
 *
 *     CJK_THEN_WORD = /(CJK)(?=[A-Za-z0-9]|CUR ?(?:SIGN?[0-9]|[A-Za-z])|SIGN(?:CUR ?)?[0-9])/gu → '$1 '
 *     WORD_THEN_CJK = /([A-Za-z0-9](?:[%‰℃℉]|°[CcFf]?)?)(?=CJK)/gu → '$1 '
 *
 * One scan does both (issue 18): the first only puts a space right after a CJK letter,
 * which is never inside what the second reads (a letter or digit, its unit, the CJK letter
 * after them) and never makes a new such window; so the second finds in the first's output
 * exactly the windows it finds in the input, and the two sets of spaces never meet.
 */
import {
  isAsciiAlnum as isAlnum,
  isAsciiDigit as isDigit,
  isAsciiLetter,
  isCjkCodePoint,
} from '../char-classes.js';

/** `[$¥€£₹]` */
const isCurrency = (unit: number) =>
  unit === 0x24 || unit === 0xa5 || unit === 0x20ac || unit === 0xa3 || unit === 0x20b9;
/** `[-+−±－＋]` */
const isSign = (unit: number) =>
  unit === 0x2d || unit === 0x2b || unit === 0x2212 || unit === 0xb1 || unit === 0xff0d || unit === 0xff0b;
/** `[%‰℃℉]` */
const isUnit = (unit: number) => unit === 0x25 || unit === 0x2030 || unit === 0x2103 || unit === 0x2109;
const DEGREE = 0xb0;
const SPACE = 0x20;

/** Whether a CJK letter (no Hangul) starts at `index`, surrogate pairs joined. */
function cjkAt(text: string, index: number): boolean {
  const unit = text.charCodeAt(index);
  if (unit < 0x3040) return false; // NaN past the end too
  return isCjkCodePoint(unit >= 0xd800 && unit <= 0xdbff ? (text.codePointAt(index) ?? unit) : unit);
}

/** The lookahead of `CJK_THEN_WORD` at `index`: a Latin word or a number starts there. */
function wordStartsAt(text: string, index: number): boolean {
  const unit = text.charCodeAt(index);
  if (isAlnum(unit)) return true;
  if (isCurrency(unit)) {
    const at = text.charCodeAt(index + 1) === SPACE ? index + 2 : index + 1;
    const next = text.charCodeAt(at);
    return isDigit(next) || isAsciiLetter(next) || (isSign(next) && isDigit(text.charCodeAt(at + 1)));
  }
  if (isSign(unit)) {
    const next = text.charCodeAt(index + 1);
    if (isDigit(next)) return true;
    if (!isCurrency(next)) return false;
    return (
      isDigit(text.charCodeAt(index + 2)) ||
      (text.charCodeAt(index + 2) === SPACE && isDigit(text.charCodeAt(index + 3)))
    );
  }
  return false;
}

/**
 * The length of `WORD_THEN_CJK`'s match at `index` (a letter or digit is there): 1, or
 * 2–3 with a unit, when a CJK letter follows; 0 when none does.
 */
function wordEndBeforeCjk(text: string, index: number): number {
  const next = text.charCodeAt(index + 1);
  if (isUnit(next)) return cjkAt(text, index + 2) ? 2 : 0;
  if (next === DEGREE) {
    const unit = text.charCodeAt(index + 2);
    if ((unit === 0x43 || unit === 0x63 || unit === 0x46 || unit === 0x66) && cjkAt(text, index + 3))
      return 3;
    return cjkAt(text, index + 2) ? 2 : 0;
  }
  return cjkAt(text, index + 1) ? 1 : 0;
}

export function addCjkEnglishSpacing(text: string): string {
  let parts: string[] | undefined;
  let cursor = 0;
  const length = text.length;
  for (let index = 0; index < length;) {
    const unit = text.charCodeAt(index);
    let end = -1; // where a space goes, if one does
    let step = 1;
    if (isAlnum(unit)) {
      const match = wordEndBeforeCjk(text, index);
      if (match > 0) end = index + match;
      step = match > 0 ? match : 1;
    } else if (unit >= 0x3040) {
      const pair = unit >= 0xd800 && unit <= 0xdbff && index + 1 < length;
      const code = pair ? (text.codePointAt(index) ?? unit) : unit;
      if (code > 0xffff) step = 2;
      if (isCjkCodePoint(code) && wordStartsAt(text, index + step)) end = index + step;
    }
    if (end !== -1) {
      (parts ??= []).push(text.slice(cursor, end), ' ');
      cursor = end;
    }
    index += step;
  }
  if (!parts) return text;
  parts.push(text.slice(cursor));
  return parts.join('');
}
