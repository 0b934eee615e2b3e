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

/** `contentSkeleton(a) === contentSkeleton(b)`, without building the skeletons. */
export function sameLetters(a: string, b: string): boolean {
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
