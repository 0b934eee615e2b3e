/**
 * The characters a person is never shown as themselves before an approval: each would
 * let a subject (a path, an origin, a script, a client's name) look like something it
 * is not. The broker's question (elicitation, `vmark approvals list`) and the approval
 * dialog both escape exactly these, from this one list.
 */

export interface DeceptiveRange {
  readonly first: number;
  readonly last: number;
  /** Why it deceives: what it hides or how it misleads. */
  readonly why: string;
}

export const DECEPTIVE_CHARACTERS: readonly DeceptiveRange[] = [
  { first: 0x0000, last: 0x001f, why: 'C0 controls: a terminal obeys them, a line breaks on them' },
  { first: 0x007f, last: 0x009f, why: 'DEL and the C1 controls: invisible, or obeyed by a terminal' },
  { first: 0x00ad, last: 0x00ad, why: 'soft hyphen: invisible unless a line breaks there' },
  { first: 0x034f, last: 0x034f, why: 'combining grapheme joiner: invisible' },
  { first: 0x061c, last: 0x061c, why: 'Arabic letter mark: changes the direction text reads' },
  { first: 0x115f, last: 0x1160, why: 'Hangul fillers: blank, taken for nothing or for a space' },
  { first: 0x180e, last: 0x180e, why: 'Mongolian vowel separator: invisible' },
  { first: 0x200b, last: 0x200d, why: 'zero-width space, non-joiner and joiner: invisible' },
  {
    first: 0x200e,
    last: 0x200f,
    why: 'left-to-right and right-to-left marks: change the direction text reads',
  },
  { first: 0x2028, last: 0x2029, why: 'line and paragraph separators: break a line that looks whole' },
  { first: 0x202a, last: 0x202e, why: 'bidi embeddings and overrides: a path that reads backwards' },
  { first: 0x2060, last: 0x2064, why: 'word joiner and invisible operators: invisible' },
  { first: 0x2065, last: 0x2065, why: 'unassigned in the invisible-format block: shown as nothing' },
  { first: 0x2066, last: 0x2069, why: 'bidi isolates: reorder the text around them' },
  { first: 0x3164, last: 0x3164, why: 'Hangul filler: blank, taken for a space' },
  { first: 0xfeff, last: 0xfeff, why: 'zero-width no-break space (byte order mark): invisible' },
  { first: 0xffa0, last: 0xffa0, why: 'halfwidth Hangul filler: blank, taken for a space' },
  { first: 0xfff9, last: 0xfffb, why: 'interlinear annotation marks: hide the text between them' },
  {
    first: 0xe0000,
    last: 0xe007f,
    why: 'tag characters: invisible copies of ASCII, text a person cannot see',
  },
  { first: 0xe0100, last: 0xe01ef, why: 'variation selectors supplement: invisible, can carry hidden data' },
];

export function isDeceptive(code: number): boolean {
  return DECEPTIVE_CHARACTERS.some((range) => code >= range.first && code <= range.last);
}

/**
 * How a deceptive character is shown: as JSON writes it (`\u202e`; past the BMP its
 * surrogate pair, `\udb40\udc41`), so that a quoted subject still parses back to itself.
 */
export function escapedCodePoint(code: number): string {
  return String.fromCodePoint(code)
    .split('')
    .map((unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`)
    .join('');
}
