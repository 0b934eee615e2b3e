import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addCjkEnglishSpacing } from './cjk-english-spacing.js';
import { CJK } from './patterns.js';

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

describe('addCjkEnglishSpacing as one scan', () => {
  // The rule as it was specified: two regular expressions, the second over the first's output.
  const SIGN = '[-+−±－＋]';
  const CURRENCY = '[$¥€£₹]';
  const WORD_START = `[A-Za-z0-9]|${CURRENCY} ?(?:${SIGN}?[0-9]|[A-Za-z])|${SIGN}(?:${CURRENCY} ?)?[0-9]`;
  const CJK_THEN_WORD = new RegExp(`(${CJK})(?=${WORD_START})`, 'gu');
  const WORD_THEN_CJK = new RegExp(`([A-Za-z0-9](?:[%‰℃℉]|°[CcFf]?)?)(?=${CJK})`, 'gu');
  const specified = (text: string) => text.replace(CJK_THEN_WORD, '$1 ').replace(WORD_THEN_CJK, '$1 ');

  it('gives the bytes of the two regular expressions it replaces', () => {
    const piece = fc.constantFrom(
      ...'中文カ한aZ09 -+−±－＋$¥€£₹%‰℃℉°CcFf,.\n'.split(''),
      '𠀀',
      '\uD840',
      '\uDC00',
      '𪜀',
      '$ ',
      '°C',
      '25℃',
      '-$ 5',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 14 }), (parts) => {
        const text = parts.join('');
        expect(addCjkEnglishSpacing(text)).toBe(specified(text));
      }),
      { numRuns: 5000 },
    );
  });
});
