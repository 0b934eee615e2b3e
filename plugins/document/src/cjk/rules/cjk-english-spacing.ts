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
import { CJK } from './patterns.js';

const SIGN = '[-+−±－＋]';
const CURRENCY = '[$¥€£₹]';

/** What may follow a CJK letter and start a Latin word or a number. */
const WORD_START = `[A-Za-z0-9]|${CURRENCY} ?(?:${SIGN}?[0-9]|[A-Za-z])|${SIGN}(?:${CURRENCY} ?)?[0-9]`;
/** A word's last letter or digit, with the unit a number may carry. */
const WORD_END = `[A-Za-z0-9](?:[%‰℃℉]|°[CcFf]?)?`;

/**
 * The places a space goes: after a CJK letter that a word follows, and before a CJK
 * letter that a word (or a number's unit) ends right before. One pass of empty matches,
 * exactly where the two replaces `(CJK)(?=WORD_START)` → `$1 ` and then
 * `(WORD_END)(?=CJK)` → `$1 ` put theirs: the first only adds a space after a CJK letter,
 * which is inside no `WORD_END` before a CJK letter and makes or breaks none, and no place
 * has a CJK letter and a word's end both right before it (issue 18: one new string instead
 * of two, no captures; the test holds it to the two replaces).
 */
const SPACE_AT = new RegExp(`(?<=${CJK})(?=${WORD_START})|(?<=${WORD_END})(?=${CJK})`, 'gu');

export function addCjkEnglishSpacing(text: string): string {
  return text.replace(SPACE_AT, ' ');
}
