/**
 * `quoteSpacing` and `singleQuoteSpacing`: one space between a curly quotation and a
 * letter, digit or `——` that touches it from outside (`他说“hello”然后` → `他说 “hello” 然后`).
 * No space next to fullwidth brackets or clause marks, which carry their own spacing,
 * and none next to Hangul (Korean spacing is the writer's). Corner brackets 「」 never
 * take spaces.
 *
 * For single quotes a `’` between two Latin letters is an apostrophe (`don’t`), not a
 * closing quote, and is left alone.
 */
import { isLatinLetter } from '../char-classes.js';
import { CJK } from './patterns.js';

const WORD = `[A-Za-z0-9]|${CJK}|——`;
const BEFORE_DOUBLE = new RegExp(`(${WORD})(?=“)`, 'gu');
const AFTER_DOUBLE = new RegExp(`”(?=${WORD})`, 'gu');
const BEFORE_SINGLE = new RegExp(`(${WORD})(?=‘)`, 'gu');
const AFTER_SINGLE = new RegExp(`’(?=${WORD})`, 'gu');

export function fixDoubleQuoteSpacing(text: string): string {
  if (!text.includes('“') && !text.includes('”')) return text;
  return text.replace(BEFORE_DOUBLE, '$1 ').replace(AFTER_DOUBLE, '” ');
}

export function fixSingleQuoteSpacing(text: string): string {
  if (!text.includes('‘') && !text.includes('’')) return text;
  return text
    .replace(BEFORE_SINGLE, (_match, before: string, offset: number, source: string) =>
      // l‘amour typed with the wrong apostrophe: a letter on both sides is a word, not a quotation.
      isLatinLetter(before) && isLatinLetter(source.charAt(offset + before.length + 1))
        ? before
        : `${before} `,
    )
    .replace(AFTER_SINGLE, (match: string, offset: number, source: string) =>
      isLatinLetter(source.charAt(offset - 1)) && isLatinLetter(source.charAt(offset + 1)) ? match : '’ ',
    );
}
