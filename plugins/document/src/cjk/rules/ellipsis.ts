/**
 * `ellipsisNormalization` (universal): a spaced ellipsis `. . .` becomes `...`, and an
 * ellipsis followed by a word gets exactly one space after it (`然后... 继续`).
 */
import { isTechnical } from '../latin-span-scanner.js';
import { STICKY } from './patterns.js';

/**
 * Three or more dots separated by horizontal space. The space before the first dot is
 * removed only when a character precedes it on the line: at a line start it is
 * indentation (or the space after a list marker) and stays. After a sticky character
 * (`$`, `*`, `_`…) it stays too: `$...` could open math where `$ ...` cannot.
 */
const SPACED_ELLIPSIS = /([^\s.]?)([ \t]*)\.[ \t]+\.[ \t]+\.(?:[ \t]+\.)*/g;

/**
 * An ellipsis (the last three dots of a run) that trails a word and is followed by a
 * letter or digit. §6 puts a space before any non-space; here only before a word,
 * because a space between `...` and a closing bracket or quote (`(等等...)`,
 * `"Wait..."`) would detach them; and only after a word, because a leading ellipsis
 * (`"...and then"`) belongs to the word it precedes.
 *
 * The look back at the word sits after the first dot, not before it: the same test of the
 * same character, but the search can jump from dot to dot instead of trying it everywhere
 * (issue 18; the test holds it to the pattern with the look back first).
 */
export const ELLIPSIS_BEFORE_WORD = /\.(?<=[^\s"'“‘「『(（[【《]\.)\.\.(?!\.)[ \t]*(?=[\p{L}\p{N}])/gu;

const HAS_SPACED_DOTS = /\.[ \t]+\./;
/** `HAS_SPACED_DOTS` or `...`. */
const HAS_ELLIPSIS = /\.(?:[ \t]+\.|\.\.)/;

export function normalizeEllipsis(text: string): string {
  // Either pattern needs a spaced dot pair or `...`: one search rules out most texts (issue 18).
  if (!HAS_ELLIPSIS.test(text)) return text;
  let result = !HAS_SPACED_DOTS.test(text)
    ? text
    : text.replace(SPACED_ELLIPSIS, (_match, lead: string, space: string) =>
        lead === '' || STICKY.includes(lead) ? `${lead}${space}...` : `${lead}...`,
      );
  if (!result.includes('...')) return result;
  const source = result;
  result = source.replace(ELLIPSIS_BEFORE_WORD, (match: string, offset: number) => {
    const next = source.charAt(offset + match.length);
    // A digit range (`1...10`) is not an ellipsis; a URL's dots are not either.
    if (/[0-9]/.test(next) && /[0-9]/.test(source.charAt(offset - 1))) return match;
    if (isTechnical(source, offset)) return match;
    return '... ';
  });
  return result;
}
