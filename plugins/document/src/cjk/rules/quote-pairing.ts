/**
 * Stack-based quote pairing: which quote characters of a segment open, which close,
 * and which are not quotes at all (apostrophes `don't`, `'90s`; primes `5'10"`).
 *
 * Curly quotes say what they are (`“` opens, `”` closes); straight ones are read from
 * their neighbours — whitespace or an opening bracket before means open, whitespace,
 * a closing bracket or a clause mark after means close — and, when the neighbours do
 * not tell, from whether a quote of the same kind is open. A pair whose closer meets
 * an unclosed quote of the other kind drops that inner quote, so one stray apostrophe
 * cannot shift every later pair.
 *
 * Every neighbour that decides is one UTF-16 unit: the classes read (Latin letters,
 * digits, whitespace, the brackets and marks below) are all in the BMP and hold no
 * surrogate, so a code point of two units matches none of them, as its units do not
 * (issue 18: no match objects, no one-character strings, no token objects; the test
 * holds it to the pairing that read characters).
 */
import { isAsciiDigit as isDigit } from '../char-classes.js';

export type QuoteKind = 'double' | 'single';

export interface QuotePair {
  open: number;
  close: number;
  kind: QuoteKind;
}

const DOUBLE = 0x22;
const SINGLE = 0x27;
const LEFT_DOUBLE = 0x201c;
const RIGHT_DOUBLE = 0x201d;
const LEFT_SINGLE = 0x2018;
const RIGHT_SINGLE = 0x2019;

const units = (chars: string) => new Set([...chars].map((char) => char.charCodeAt(0)));
const OPEN_CONTEXT = units('([{（【《〈「『“‘');
const CLOSE_CONTEXT = units(')]}）】》〉」』”’，。！？；：、.,!?;:');

/** Latin letters (ASCII and the Latin-1/Extended-A/B blocks): the side of an apostrophe. */
const isLatinLetterUnit = (unit: number): boolean =>
  (unit >= 0x41 && unit <= 0x5a) || (unit >= 0x61 && unit <= 0x7a) || (unit >= 0xc0 && unit <= 0x24f);

/** The units `\s` matches (all in the BMP). */
function isSpaceUnit(unit: number): boolean {
  if (unit <= 0x20) return unit === 0x20 || (unit >= 0x09 && unit <= 0x0d);
  if (unit < 0xa0) return false;
  return (
    unit === 0xa0 ||
    unit === 0x1680 ||
    (unit >= 0x2000 && unit <= 0x200a) ||
    unit === 0x2028 ||
    unit === 0x2029 ||
    unit === 0x202f ||
    unit === 0x205f ||
    unit === 0x3000 ||
    unit === 0xfeff
  );
}

/** Whether a unit is one of the four quotes that are `double` or the three that are `single`. */
function kindOf(unit: number): QuoteKind | null {
  if (unit === DOUBLE || unit === LEFT_DOUBLE || unit === RIGHT_DOUBLE) return 'double';
  if (unit === SINGLE || unit === LEFT_SINGLE || unit === RIGHT_SINGLE) return 'single';
  return null;
}

/** The six quotes, one unit each (no `u` flag: `lastIndex` counts units). */
const QUOTE = /["'“”‘’]/g;

const OPEN = 1;
const CLOSE = 2;

/**
 * The quote pairs of `text`, ordered by opener. `skip(index)` excludes positions
 * (quotes inside URLs and other technical tokens).
 */
export function pairQuotes(text: string, skip: (index: number) => boolean = () => false): QuotePair[] {
  // The open quotes of each kind, by position.
  const doubles: number[] = [];
  const singles: number[] = [];
  const pairs: QuotePair[] = [];
  let ordered = true;
  // The engine finds each quote (`test` on a global pattern builds no match object).
  QUOTE.lastIndex = 0;
  while (QUOTE.test(text)) {
    const index = QUOTE.lastIndex - 1;
    const unit = text.charCodeAt(index);
    const kind = kindOf(unit);
    if (kind === null || skip(index)) continue;
    const stack = kind === 'double' ? doubles : singles;
    const role = classify(text, index, unit, stack.length > 0);
    if (role === 0) continue;
    if (role === OPEN) {
      stack.push(index);
      continue;
    }
    const opener = stack.pop();
    if (opener === undefined) continue;
    const other = kind === 'double' ? singles : doubles;
    while (other.length > 0 && other[other.length - 1]! > opener) other.pop();
    if (pairs.length > 0 && pairs[pairs.length - 1]!.open > opener) ordered = false;
    pairs.push({ open: opener, close: index, kind });
  }
  return ordered ? pairs : pairs.sort((a, b) => a.open - b.open);
}

/** `OPEN`, `CLOSE`, or 0 for a quote that is none (an apostrophe, a prime). */
function classify(text: string, index: number, unit: number, hasOpen: boolean): number {
  // Past either end `charCodeAt` is NaN, which is in no class.
  const before = text.charCodeAt(index - 1);
  const after = text.charCodeAt(index + 1);
  if (unit === SINGLE || unit === RIGHT_SINGLE) {
    // don't, l'amour, Xiaolai's — and `dogs'` unless a single quote is open.
    if (isLatinLetterUnit(before) && (isLatinLetterUnit(after) || !hasOpen)) return 0;
    // '90s
    if (isDigit(after) && isDigit(text.charCodeAt(index + 2)) && !isDigit(before)) return 0;
  }
  // 5' and 5'10": primes, unless they close an open quote (`他说"第3"`).
  if (unit !== LEFT_DOUBLE && unit !== LEFT_SINGLE && isDigit(before) && !hasOpen) return 0;
  if (unit === LEFT_DOUBLE || unit === LEFT_SINGLE) return OPEN;
  if (unit === RIGHT_DOUBLE || unit === RIGHT_SINGLE) return CLOSE;

  const opensHere = index === 0 || isSpaceUnit(before) || OPEN_CONTEXT.has(before);
  const closesHere = index + 1 >= text.length || isSpaceUnit(after) || CLOSE_CONTEXT.has(after);
  if (opensHere && !closesHere) return OPEN;
  if (closesHere && !opensHere) return CLOSE;
  return hasOpen ? CLOSE : OPEN;
}
