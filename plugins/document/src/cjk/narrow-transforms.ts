/**
 * The two narrow transforms of `document.transform`, exactly as the design notes (§6)
 * specify them, applied to one formattable segment: the same character class and the
 * same results, so a document comes out as it would from the original editor. The
 * full formatter (`cjk-format`) is where typesetting judgment goes.
 */
import { isNarrowCjkUnit, NARROW_CJK_CLASS } from './char-classes.js';
import type { ProtectedRegion } from './region-types.js';

const HAS_CJK = new RegExp(NARROW_CJK_CLASS);

/**
 * §6 runs `(CJK)(alnum) → $1 $2`, then `(alnum)(CJK) → $1 $2`. A character is CJK or
 * alphanumeric, never both, so the pairs each pass matches never share a character and
 * the first pass's spaces (between CJK and alnum) neither create nor split a pair of the
 * second: inserting a space at every boundary between the two classes, in one pass, gives
 * the same text (a test checks it against the literal sequence).
 */
const CJK_ALNUM_BOUNDARY = new RegExp(
  `(?<=${NARROW_CJK_CLASS})(?=[A-Za-z0-9])|(?<=[A-Za-z0-9])(?=${NARROW_CJK_CLASS})`,
  'g',
);

/** `cjk-spacing`: one space between a CJK character and an adjacent ASCII letter or digit. */
export function cjkSpacing(text: string): string {
  if (!HAS_CJK.test(text)) return text;
  return text.replace(CJK_ALNUM_BOUNDARY, ' ');
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

const FULL_OF: ReadonlyMap<string, string> = new Map(HALF_TO_FULL);

/**
 * §6 runs one `(CJK)half → $1full` and one `half(CJK) → full$1` replacement per pair of
 * `HALF_TO_FULL`. Those sixteen passes convert exactly the marks that touch a CJK
 * character in the input: a conversion never adds or removes a CJK character, each
 * mark has one fullwidth form, and a CJK character can be consumed by one match only
 * on each side. So one pass with lookarounds gives the same result, sixteen times
 * cheaper (a test checks the equivalence against the literal sequence).
 */
const HALF_NEXT_TO_CJK = new RegExp(
  `(?<=${NARROW_CJK_CLASS})[,.!?;:()]|[,.!?;:()](?=${NARROW_CJK_CLASS})`,
  'g',
);

/**
 * `cjk-punctuation`: ASCII punctuation right after or right before a CJK character
 * becomes fullwidth. A converted mark is not itself CJK, so `中,,` converts only the
 * comma that touches the ideograph (as in the original).
 */
export function cjkPunctuation(text: string): string {
  if (!HAS_CJK.test(text)) return text;
  return text.replace(HALF_NEXT_TO_CJK, (half) => FULL_OF.get(half) ?? half);
}

/**
 * Whether the narrow transform `kind` could change anything in `text`: it has a match
 * somewhere (a match inside a part of the text is a match in the whole). Stops at the
 * first match.
 */
export function mayRewrite(kind: 'cjk-spacing' | 'cjk-punctuation', text: string): boolean {
  const pattern = kind === 'cjk-spacing' ? CJK_ALNUM_BOUNDARY : HALF_NEXT_TO_CJK;
  pattern.lastIndex = 0;
  const found = pattern.test(text);
  pattern.lastIndex = 0;
  return found;
}

/** Per UTF-16 unit: 1 for `NARROW_CJK_CLASS`, 2 for an ASCII letter or digit, 4 for a mark of `HALF_TO_FULL`. */
const UNIT_CLASS = (() => {
  const table = new Uint8Array(0x10000);
  for (let unit = 0; unit < 0x10000; unit++) if (isNarrowCjkUnit(unit)) table[unit] = 1;
  for (const char of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789')
    table[char.charCodeAt(0)] = 2;
  for (const [half] of HALF_TO_FULL) table[half.charCodeAt(0)] = 4;
  return table;
})();

/**
 * A narrow transform over a whole document, leaving `regions` (ordered, disjoint)
 * alone: one scan of the text between them with a class table, instead of a slice and
 * a regex replace per segment (ADR 58). It makes the rewrites `cjkSpacing` /
 * `cjkPunctuation` make on each segment: both read only the characters right next to
 * the change, inside the segment. Returns `content` itself when nothing changes.
 */
export function rewriteOutside(
  kind: 'cjk-spacing' | 'cjk-punctuation',
  content: string,
  regions: readonly ProtectedRegion[],
): string {
  const spacing = kind === 'cjk-spacing';
  const parts: string[] = [];
  let cursor = 0;
  let from = 0;
  for (let next = 0; next <= regions.length; next++) {
    const to = next < regions.length ? regions[next]!.from : content.length;
    let previous = 0;
    for (let index = from; index < to; index++) {
      const unitClass = UNIT_CLASS[content.charCodeAt(index)]!;
      if (spacing) {
        if ((previous === 1 && unitClass === 2) || (previous === 2 && unitClass === 1)) {
          parts.push(content.slice(cursor, index), ' ');
          cursor = index;
        }
      } else if (
        unitClass === 4 &&
        (previous === 1 || (index + 1 < to && UNIT_CLASS[content.charCodeAt(index + 1)] === 1))
      ) {
        parts.push(content.slice(cursor, index), FULL_OF.get(content.charAt(index)) ?? '');
        cursor = index + 1;
      }
      previous = unitClass;
    }
    if (next < regions.length) from = Math.max(to, regions[next]!.to);
  }
  if (parts.length === 0) return content;
  parts.push(content.slice(cursor));
  return parts.join('');
}
