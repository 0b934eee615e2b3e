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
 */
import { charAt, charBefore, isLatinLetter } from '../char-classes.js';

export type QuoteKind = 'double' | 'single';

export interface QuotePair {
  open: number;
  close: number;
  kind: QuoteKind;
}

const QUOTE = /["'“”‘’]/g;
const OPEN_CONTEXT = '([{（【《〈「『“‘';
const CLOSE_CONTEXT = ')]}）】》〉」』”’，。！？；：、.,!?;:';

interface Token {
  index: number;
  kind: QuoteKind;
  role: 'open' | 'close';
}

/**
 * The quote pairs of `text`, ordered by opener. `skip(index)` excludes positions
 * (quotes inside URLs and other technical tokens).
 */
export function pairQuotes(text: string, skip: (index: number) => boolean = () => false): QuotePair[] {
  const stacks: Record<QuoteKind, Token[]> = { double: [], single: [] };
  const pairs: QuotePair[] = [];
  for (const match of text.matchAll(QUOTE)) {
    const index = match.index;
    if (skip(index)) continue;
    const token = classify(text, index, match[0], stacks);
    if (!token) continue;
    const stack = stacks[token.kind];
    if (token.role === 'open') {
      stack.push(token);
      continue;
    }
    const opener = stack.pop();
    if (!opener) continue;
    const other = stacks[token.kind === 'double' ? 'single' : 'double'];
    while (other.length > 0 && (other[other.length - 1]?.index ?? -1) > opener.index) other.pop();
    pairs.push({ open: opener.index, close: index, kind: token.kind });
  }
  return pairs.sort((a, b) => a.open - b.open);
}

function classify(
  text: string,
  index: number,
  char: string,
  stacks: Record<QuoteKind, Token[]>,
): Token | null {
  const kind: QuoteKind = char === '"' || char === '“' || char === '”' ? 'double' : 'single';
  const before = charBefore(text, index);
  const after = charAt(text, index + 1);
  const hasOpen = stacks[kind].length > 0;
  if (kind === 'single' && char !== '‘') {
    // don't, l'amour, Xiaolai's — and `dogs'` unless a single quote is open.
    if (isLatinLetter(before) && (isLatinLetter(after) || !hasOpen)) return null;
    // '90s
    if (/[0-9]/.test(after) && /[0-9]/.test(charAt(text, index + 2)) && !/[0-9]/.test(before)) return null;
  }
  // 5' and 5'10": primes, unless they close an open quote (`他说"第3"`).
  if (char !== '“' && char !== '‘' && /[0-9]/.test(before) && !hasOpen) return null;
  if (char === '“' || char === '‘') return { index, kind, role: 'open' };
  if (char === '”' || char === '’') return { index, kind, role: 'close' };

  const opensHere = before === '' || /\s/.test(before) || OPEN_CONTEXT.includes(before);
  const closesHere = after === '' || /\s/.test(after) || CLOSE_CONTEXT.includes(after);
  if (opensHere && !closesHere) return { index, kind, role: 'open' };
  if (closesHere && !opensHere) return { index, kind, role: 'close' };
  return { index, kind, role: hasOpen ? 'close' : 'open' };
}
