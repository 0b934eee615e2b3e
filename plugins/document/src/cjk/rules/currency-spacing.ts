/**
 * `currencySpacing`: a currency symbol binds to its amount (`$ 100` → `$100`), a unit
 * binds to its number (`50 %` → `50%`, `25 ℃` → `25℃`), and an ISO currency code after
 * an amount is set off by a space (`100USD` → `100 USD`).
 *
 * The original also wrote `USD 200` as `USD200`; that is left alone here, because a
 * currency code is a word and is spaced from its amount on either side (ISO 4217 usage).
 * Only horizontal space is removed: a rule never joins lines.
 */
const SYMBOL_SPACE = /([$¥€£₹])[ \t]+(?=[0-9])/g;
const UNIT_SPACE = /([0-9])[ \t]+(?=(?:%|‰|℃|℉|°[CcFf]?)(?:[\s,;.。，；、！？!?)\]」』】〉》]|$))/g;
const CODE_AFTER_AMOUNT = /([0-9])(?=(?:USD|CNY|EUR|GBP|RMB|JPY)\b)/g;

export function fixCurrencySpacing(text: string): string {
  return text.replace(SYMBOL_SPACE, '$1').replace(UNIT_SPACE, '$1').replace(CODE_AFTER_AMOUNT, '$1 ');
}
