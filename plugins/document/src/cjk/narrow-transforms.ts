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

/**
 * A narrow transform over a whole document, leaving `regions` (ordered, disjoint)
 * alone: one scan of the text instead of a slice and a replace per segment (ADR 58).
 * The same result as running it on each segment: a rewrite reads only the characters
 * right next to it, and a segment's neighbours are exactly its unprotected ones.
 * Returns `content` itself when nothing changes.
 */
export function rewriteOutside(
  kind: 'cjk-spacing' | 'cjk-punctuation',
  content: string,
  regions: readonly ProtectedRegion[],
): string {
  const spacing = kind === 'cjk-spacing';
  const pattern = spacing ? CJK_ALNUM_BOUNDARY : HALF_NEXT_TO_CJK;
  const parts: string[] = [];
  let cursor = 0;
  // The first region that ends after the position before the current match.
  let first = 0;
  const isProtected = (index: number) => {
    for (let k = first; k < regions.length && regions[k]!.from <= index; k++) {
      if (regions[k]!.to > index) return true;
    }
    return false;
  };
  for (const match of content.matchAll(pattern)) {
    const at = match.index;
    while (first < regions.length && regions[first]!.to <= at - 1) first++;
    if (spacing) {
      if (isProtected(at - 1) || isProtected(at)) continue;
      parts.push(content.slice(cursor, at), ' ');
      cursor = at;
    } else {
      if (isProtected(at)) continue;
      const before = isNarrowCjkUnit(content.charCodeAt(at - 1)) && !isProtected(at - 1);
      const after = isNarrowCjkUnit(content.charCodeAt(at + 1)) && !isProtected(at + 1);
      if (!before && !after) continue;
      parts.push(content.slice(cursor, at), FULL_OF.get(match[0]) ?? match[0]);
      cursor = at + 1;
    }
  }
  if (parts.length === 0) return content;
  parts.push(content.slice(cursor));
  return parts.join('');
}
