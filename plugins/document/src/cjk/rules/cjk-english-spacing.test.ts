import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addCjkEnglishSpacing } from './cjk-english-spacing.js';
import { CJK } from './patterns.js';

/** `WORD_START` as the rule spells it, kept here so that the old replaces stay as they were. */
const WORD_START_FOR_TEST =
  '[A-Za-z0-9]|[$¥€£₹] ?(?:[-+−±－＋]?[0-9]|[A-Za-z])|[-+−±－＋](?:[$¥€£₹] ?)?[0-9]';

const s = addCjkEnglishSpacing;

describe('addCjkEnglishSpacing', () => {
  it('spaces CJK from Latin words and numbers, both ways', () => {
    expect(s('学习Python编程')).toBe('学习 Python 编程');
    expect(s('共100个')).toBe('共 100 个');
    expect(s('使用macOS系统')).toBe('使用 macOS 系统');
    expect(s('2024年')).toBe('2024 年');
    expect(s('カタカナABC')).toBe('カタカナ ABC');
    expect(s('𠀀A')).toBe('𠀀 A');
  });

  it('keeps signs, currency symbols and units with their number', () => {
    expect(s('价格$100元')).toBe('价格 $100 元');
    expect(s('温度25℃正常')).toBe('温度 25℃ 正常');
    expect(s('增长-5%左右')).toBe('增长 -5% 左右');
    expect(s('约30°的角')).toBe('约 30° 的角');
  });

  it('leaves hyphenated words, existing spaces and Korean', () => {
    expect(s('中文-Web')).toBe('中文-Web');
    expect(s('你好 World')).toBe('你好 World');
    expect(s('VMark에는')).toBe('VMark에는');
  });
});

describe('the one-pass walk (ADR 90, ADR 94)', () => {
  // The rule as it was: two replaces, the second over the first's output.
  const CJK_THEN_WORD = new RegExp(`(${CJK})(?=${WORD_START_FOR_TEST})`, 'gu');
  const WORD_THEN_CJK = new RegExp(`([A-Za-z0-9](?:[%‰℃℉]|°[CcFf]?)?)(?=${CJK})`, 'gu');
  const twoReplaces = (text: string) => text.replace(CJK_THEN_WORD, '$1 ').replace(WORD_THEN_CJK, '$1 ');
  const piece = fc.constantFrom(
    ...[...'中文かカㄅ㐀豈AZaz09 -+−±－＋$¥€£₹%‰℃℉°CcFf.,한Ａ'],
    '𠀀',
    '𰀀',
    '\uD840',
    '\uDC00',
    // The class's edges, and astral code points on both sides of its last range.
    '\u303F',
    '\u3040',
    '\u30FF',
    '\u9FFF',
    '\uA000',
    '\u{3134F}',
    '\u{31350}',
    '😀',
    '\n',
    '°C',
    '$ ',
    // A sign before a currency symbol, with and without the space after it.
    '-$ ',
    '+¥',
  );

  it('puts a space exactly where the two replaces did', () => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 24 }), (pieces) => {
        const text = pieces.join('');
        expect(s(text)).toBe(twoReplaces(text));
      }),
      { numRuns: 5000 },
    );
  });
});
