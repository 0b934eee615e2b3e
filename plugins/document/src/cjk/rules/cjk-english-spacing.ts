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
const CJK_THEN_WORD = new RegExp(`(${CJK})(?=${WORD_START})`, 'gu');
const WORD_THEN_CJK = new RegExp(`([A-Za-z0-9](?:[%‰℃℉]|°[CcFf]?)?)(?=${CJK})`, 'gu');

export function addCjkEnglishSpacing(text: string): string {
  return text.replace(CJK_THEN_WORD, '$1 ').replace(WORD_THEN_CJK, '$1 ');
}
