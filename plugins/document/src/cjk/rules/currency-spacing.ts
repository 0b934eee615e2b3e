/**
 * `currencySpacing`: a currency symbol binds to its amount (`$ 100` → `$100`), a unit
 * binds to its number (`50 %` → `50%`, `25 ℃` → `25℃`), and an ISO currency code after
 * an amount is set off by a space (`100USD` → `100 USD`).
 *
 * The original also wrote `USD 200` as `USD200`; that is left alone here, because a
 * currency code is a word and is spaced from its amount on either side (ISO 4217 usage).
 * Only horizontal space is removed: a rule never joins lines.
 *
 * `$` is also the math delimiter, and `$100` (unlike `$ 100`) can open math: with
 * another `$` later on the line, `$ 100 … $x$` would become the formula `$100 … $`.
 * So `$ 100` is tightened only when the rest of its line is visibly free of `$`.
 */
import type { SegmentContext } from '../segments.js';

const SYMBOL_SPACE = /([$¥€£₹])[ \t]+(?=[0-9])/g;
const UNIT_SPACE = /([0-9])[ \t]+(?=(?:%|‰|℃|℉|°[CcFf]?)(?:[\s,;.。，；、！？!?)\]」』】〉》]|$))/g;
const CODE_AFTER_AMOUNT = /([0-9])(?=(?:USD|CNY|EUR|GBP|RMB|JPY)\b)/g;

const MAY_NEED_WORK = /[$¥€£₹%‰℃℉°]|USD|CNY|EUR|GBP|RMB|JPY/;

export function fixCurrencySpacing(text: string, context: SegmentContext): string {
  if (!MAY_NEED_WORK.test(text)) return text;
  return text
    .replace(SYMBOL_SPACE, (match: string, symbol: string, offset: number) =>
      symbol === '$' && dollarMayFollow(text, offset + match.length, context) ? match : symbol,
    )
    .replace(UNIT_SPACE, '$1')
    .replace(CODE_AFTER_AMOUNT, '$1 ');
}

/** Whether a `$` may follow on the same line: in this segment, or past its end. */
function dollarMayFollow(text: string, from: number, context: SegmentContext): boolean {
  const lineEnd = text.indexOf('\n', from);
  const rest = lineEnd === -1 ? text.slice(from) : text.slice(from, lineEnd);
  return rest.includes('$') || (lineEnd === -1 && !context.atDocumentEnd);
}
