import { describe, expect, it } from 'vitest';
import { DECEPTIVE_CHARACTERS, escapedCodePoint, isDeceptive } from './deceptive-characters.js';

/* The spoofs a person is protected from before an approval, one by one. */
const SPOOFS: ReadonlyArray<readonly [string, number]> = [
  ['NUL', 0x0000],
  ['escape (drives a terminal)', 0x001b],
  ['carriage return (rewrites a line)', 0x000d],
  ['newline', 0x000a],
  ['tab', 0x0009],
  ['DEL', 0x007f],
  ['C1 control sequence introducer', 0x009b],
  ['C1 next line', 0x0085],
  ['soft hyphen', 0x00ad],
  ['combining grapheme joiner', 0x034f],
  ['Arabic letter mark', 0x061c],
  ['Hangul choseong filler', 0x115f],
  ['Hangul jungseong filler', 0x1160],
  ['Mongolian vowel separator', 0x180e],
  ['zero-width space', 0x200b],
  ['zero-width non-joiner', 0x200c],
  ['zero-width joiner', 0x200d],
  ['left-to-right mark', 0x200e],
  ['right-to-left mark', 0x200f],
  ['line separator', 0x2028],
  ['paragraph separator', 0x2029],
  ['left-to-right embedding', 0x202a],
  ['right-to-left embedding', 0x202b],
  ['pop directional formatting', 0x202c],
  ['left-to-right override', 0x202d],
  ['right-to-left override', 0x202e],
  ['word joiner', 0x2060],
  ['invisible times', 0x2062],
  ['invisible plus', 0x2064],
  ['left-to-right isolate', 0x2066],
  ['right-to-left isolate', 0x2067],
  ['first strong isolate', 0x2068],
  ['pop directional isolate', 0x2069],
  ['Hangul filler', 0x3164],
  ['zero-width no-break space (BOM)', 0xfeff],
  ['halfwidth Hangul filler', 0xffa0],
  ['interlinear annotation anchor', 0xfff9],
  ['interlinear annotation terminator', 0xfffb],
  ['tag space (hidden ASCII)', 0xe0020],
  ['tag letter A (hidden ASCII)', 0xe0041],
  ['cancel tag', 0xe007f],
  ['variation selector 17', 0xe0100],
  ['variation selector 256', 0xe01ef],
];

/* What a person reads as itself. */
const PLAIN: ReadonlyArray<readonly [string, number]> = [
  ['space', 0x0020],
  ['tilde', 0x007e],
  ['no-break space (a visible space)', 0x00a0],
  ['é', 0x00e9],
  ['Cyrillic а (a homoglyph, but visible: the path is quoted whole)', 0x0430],
  ['Hebrew alef', 0x05d0],
  ['ideographic space', 0x3000],
  ['漢', 0x6f22],
  ['emoji variation selector (FE0F)', 0xfe0f],
  ['replacement character', 0xfffd],
  ['emoji 😀', 0x1f600],
];

describe('the deceptive characters shown escaped before an approval', () => {
  it.each(SPOOFS)('escapes %s', (_name, code) => {
    expect(isDeceptive(code)).toBe(true);
  });

  it.each(PLAIN)('shows %s as itself', (_name, code) => {
    expect(isDeceptive(code)).toBe(false);
  });

  it('lists disjoint ranges in order, each with a reason', () => {
    for (const [i, range] of DECEPTIVE_CHARACTERS.entries()) {
      expect(range.first).toBeLessThanOrEqual(range.last);
      expect(range.why).not.toBe('');
      if (i > 0) expect(range.first).toBeGreaterThan(DECEPTIVE_CHARACTERS[i - 1]!.last);
    }
  });

  it('escapes unambiguously, past the BMP too', () => {
    expect(escapedCodePoint(0x202e)).toBe('\\u202e');
    expect(escapedCodePoint(0x001b)).toBe('\\u001b');
    expect(escapedCodePoint(0xe0041)).toBe('\\udb40\\udc41');
    expect(JSON.parse(`"${escapedCodePoint(0xe0041)}"`)).toBe('\u{e0041}');
  });
});
