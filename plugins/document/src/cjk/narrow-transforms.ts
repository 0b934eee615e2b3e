/**
 * The two narrow transforms of `document.transform`, exactly as the design notes (§6)
 * specify them, applied to one formattable segment. They are kept literal — the same
 * class, the same replacement order — so a document comes out as it would from the
 * original editor; the full formatter (`cjk-format`) is where typesetting judgment goes.
 */
import { NARROW_CJK_CLASS } from './char-classes.js';

const CJK_THEN_ALNUM = new RegExp(`(${NARROW_CJK_CLASS})([A-Za-z0-9])`, 'g');
const ALNUM_THEN_CJK = new RegExp(`([A-Za-z0-9])(${NARROW_CJK_CLASS})`, 'g');

/** `cjk-spacing`: one space between a CJK character and an adjacent ASCII letter or digit. */
export function cjkSpacing(text: string): string {
  return text.replace(CJK_THEN_ALNUM, '$1 $2').replace(ALNUM_THEN_CJK, '$1 $2');
}

/** §6's `HALF_TO_FULL`, in its order. */
export const HALF_TO_FULL: readonly (readonly [string, string])[] = [
  [',', '，'],
  ['.', '。'],
  ['!', '！'],
  ['?', '？'],
  [';', '；'],
  [':', '：'],
  ['(', '（'],
  [')', '）'],
];

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const PUNCTUATION_PASSES = HALF_TO_FULL.map(([half, full]) => ({
  after: new RegExp(`(${NARROW_CJK_CLASS})${escapeRegExp(half)}`, 'g'),
  before: new RegExp(`${escapeRegExp(half)}(${NARROW_CJK_CLASS})`, 'g'),
  full,
}));

/**
 * `cjk-punctuation`: ASCII punctuation right after or right before a CJK character
 * becomes fullwidth. A converted mark is not itself CJK, so `中,,` converts only the
 * comma that touches the ideograph (as in the original).
 */
export function cjkPunctuation(text: string): string {
  let result = text;
  for (const { after, before, full } of PUNCTUATION_PASSES) {
    result = result.replace(after, `$1${full}`).replace(before, `${full}$1`);
  }
  return result;
}
