/**
 * The letters of a text, for the content half of the integrity check: `contentSkeleton`
 * (NFKC-folded, whitespace and punctuation dropped), and `sameLetters`, which tells whether
 * two texts have the same skeleton without building either: both are normalized (cheap,
 * native) and walked side by side, skipping whitespace and punctuation by a per-character
 * table instead of a Unicode-property regular expression, which cost the check more than
 * the rest of it together (issue 18).
 */
const WHITESPACE_OR_PUNCTUATION = /[\p{White_Space}\p{P}]/gu;

/** The letters of `text`: NFKC-folded, without whitespace and punctuation. */
export function contentSkeleton(text: string): string {
  return text.normalize('NFKC').replace(WHITESPACE_OR_PUNCTUATION, '');
}

/** Per BMP code unit: 0 not looked at yet, 1 a letter (kept), 2 whitespace or punctuation (dropped). */
const kind = new Uint8Array(0x10000);
const DROPPED = /^[\p{White_Space}\p{P}]$/u;
const KEPT = 1;
const DROP = 2;

/** Whether the character at `index` (a whole surrogate pair, if it starts one) is dropped. */
function droppedAt(text: string, index: number, code: number): boolean {
  if (code >= 0xd800 && code <= 0xdbff && index + 1 < text.length) {
    const next = text.charCodeAt(index + 1);
    if (next >= 0xdc00 && next <= 0xdfff) return DROPPED.test(text.slice(index, index + 2));
  }
  let known = kind[code]!;
  if (known === 0) {
    known = DROPPED.test(String.fromCharCode(code)) ? DROP : KEPT;
    kind[code] = known;
  }
  return known === DROP;
}

/** The index of the first character at or after `index` that is not dropped (`text.length` if none). */
function nextKept(text: string, index: number): number {
  let at = index;
  while (at < text.length && droppedAt(text, at, text.charCodeAt(at))) at += unitsAt(text, at);
  return at;
}

/** 2 for a surrogate pair at `index`, else 1. */
function unitsAt(text: string, index: number): number {
  const code = text.charCodeAt(index);
  if (code < 0xd800 || code > 0xdbff || index + 1 >= text.length) return 1;
  const next = text.charCodeAt(index + 1);
  return next >= 0xdc00 && next <= 0xdfff ? 2 : 1;
}

/**
 * Units whose NFKC form cannot change with their neighbours (ADR 84): their full
 * compatibility decomposition starts with a starter that no canonical composition takes
 * as its second part, so NFKC of a text made of them only is the concatenation of each
 * unit's NFKC form, and its skeleton the concatenation of each unit's skeleton. ASCII,
 * CJK symbols and punctuation (without the combining tone marks U+302A–302F), hiragana and
 * katakana (without the voicing marks U+3099–309C and the iteration marks), general
 * punctuation, CJK ideographs, Hangul syllables (no conjoining jamo) and fullwidth ASCII.
 * The test checks the claim for each of them against every composition Unicode has.
 */
export const CONTEXT_FREE_RANGES: readonly (readonly [number, number])[] = [
  [0x09, 0x0a],
  [0x0d, 0x0d],
  [0x20, 0x7e],
  [0x2010, 0x2027],
  [0x2030, 0x205e],
  [0x3000, 0x3029],
  [0x3030, 0x303f],
  [0x3041, 0x3096],
  [0x30a0, 0x30fa],
  [0x30fc, 0x30fc],
  [0x3400, 0x4dbf],
  [0x4e00, 0x9fff],
  [0xac00, 0xd7a3],
  [0xff01, 0xff5e],
];

/** Per BMP unit: 0 not looked at yet, UNSAFE, DROPPED, or 1 + the one kept unit of its skeleton. */
const image = new Int32Array(0x10000);
const UNSAFE = -1;
const DROPPED_UNIT = -2;
const END = -3;
const contextFree = new Uint8Array(0x10000);
for (const [from, to] of CONTEXT_FREE_RANGES) contextFree.fill(1, from, to + 1);

/** What unit `code` adds to a skeleton, if it is context free: DROPPED_UNIT, or 1 + a unit. */
function imageOf(code: number): number {
  let known = image[code]!;
  if (known === 0) {
    const skeleton = contextFree[code] === 1 ? contentSkeleton(String.fromCharCode(code)) : null;
    known =
      skeleton === null || skeleton.length > 1
        ? UNSAFE
        : skeleton === ''
          ? DROPPED_UNIT
          : 1 + skeleton.charCodeAt(0);
    image[code] = known;
  }
  return known;
}

/** The next kept unit's image at or after `cursor.at` (advancing it), END, or UNSAFE. */
function nextImage(text: string, cursor: { at: number }): number {
  while (cursor.at < text.length) {
    const known = imageOf(text.charCodeAt(cursor.at++));
    if (known !== DROPPED_UNIT) return known;
  }
  return END;
}

function contextFreeFrom(text: string, index: number): boolean {
  for (let at = index; at < text.length; at++) if (imageOf(text.charCodeAt(at)) === UNSAFE) return false;
  return true;
}

/**
 * `sameLetters` for texts of context-free units only, without normalizing them: true or
 * false, or null when a unit is not context free (then only the normalized texts can tell).
 */
function sameContextFreeLetters(a: string, b: string): boolean | null {
  const left = { at: 0 };
  const right = { at: 0 };
  for (;;) {
    const x = nextImage(a, left);
    const y = nextImage(b, right);
    if (x === UNSAFE || y === UNSAFE) return null;
    if (x !== y) return contextFreeFrom(a, left.at) && contextFreeFrom(b, right.at) ? false : null;
    if (x === END) return true;
  }
}

/** `contentSkeleton(a) === contentSkeleton(b)`, without building the skeletons. */
export function sameLetters(a: string, b: string): boolean {
  return sameContextFreeLetters(a, b) ?? sameNormalizedLetters(a, b);
}

function sameNormalizedLetters(a: string, b: string): boolean {
  const left = a.normalize('NFKC');
  const right = b.normalize('NFKC');
  let i = nextKept(left, 0);
  let j = nextKept(right, 0);
  while (i < left.length && j < right.length) {
    // Kept characters compare unit by unit: a pair is kept or dropped whole on both sides.
    if (left.charCodeAt(i) !== right.charCodeAt(j)) return false;
    i = nextKept(left, i + 1);
    j = nextKept(right, j + 1);
  }
  return i >= left.length && j >= right.length;
}
