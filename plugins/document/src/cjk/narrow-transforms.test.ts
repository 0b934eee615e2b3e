import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyTransform, cjkPunctuation, cjkSpacing, HALF_TO_FULL } from './index.js';

const CJK = '[\\u4E00-\\u9FFF\\u3040-\\u309F\\u30A0-\\u30FF\\uAC00-\\uD7AF]';

/** §6's `cjk-punctuation`, written out literally: one after-pass and one before-pass per pair. */
function literalPunctuation(text: string): string {
  let result = text;
  for (const [half, full] of HALF_TO_FULL) {
    const escaped = half.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    result = result
      .replace(new RegExp(`(${CJK})${escaped}`, 'g'), `$1${full}`)
      .replace(new RegExp(`${escaped}(${CJK})`, 'g'), `${full}$1`);
  }
  return result;
}

/** §6's `cjk-spacing`, written out literally: CJK-then-alnum, then alnum-then-CJK. */
function literalSpacing(text: string): string {
  return text
    .replace(new RegExp(`(${CJK})([A-Za-z0-9])`, 'g'), '$1 $2')
    .replace(new RegExp(`([A-Za-z0-9])(${CJK})`, 'g'), '$1 $2');
}

/** Short texts of CJK, ASCII letters and digits, spaces and the marks both transforms read. */
const mixedText = fc
  .array(
    fc.constantFrom(
      '中',
      'あ',
      'カ',
      '한',
      'a',
      'Z',
      '1',
      ' ',
      ',',
      '.',
      '!',
      '?',
      ';',
      ':',
      '(',
      ')',
      '，',
      '\n',
    ),
    { maxLength: 30 },
  )
  .map((chars) => chars.join(''));

describe('cjk-spacing', () => {
  it('gives the same result as §6 written out literally', () => {
    fc.assert(
      fc.property(mixedText, (text) => {
        expect(cjkSpacing(text)).toBe(literalSpacing(text));
      }),
      { numRuns: 2000 },
    );
  });

  it('puts one space between CJK and ASCII letters or digits, both ways', () => {
    expect(cjkSpacing('中文English中文')).toBe('中文 English 中文');
    expect(cjkSpacing('共100个')).toBe('共 100 个');
    expect(cjkSpacing('한국어abc')).toBe('한국어 abc');
    expect(cjkSpacing('ひらがなa')).toBe('ひらがな a');
  });

  it('touches nothing else', () => {
    expect(cjkSpacing('中文 English')).toBe('中文 English');
    expect(cjkSpacing('中文,English')).toBe('中文,English');
    expect(cjkSpacing('中文é')).toBe('中文é');
    expect(cjkSpacing('１２３中文')).toBe('１２３中文');
  });
});

describe('cjk-punctuation', () => {
  it('converts marks touching CJK, in both directions', () => {
    expect(cjkPunctuation('你好,世界.')).toBe('你好，世界。');
    expect(cjkPunctuation('English,中文')).toBe('English，中文');
    expect(cjkPunctuation('中文(注意)')).toBe('中文（注意）');
    expect(cjkPunctuation('什么?真的!是;这样:')).toBe('什么？真的！是；这样：');
  });

  it('converts only the mark that touches the CJK character', () => {
    expect(cjkPunctuation('中,,')).toBe('中，,');
    expect(cjkPunctuation('Hello, world.')).toBe('Hello, world.');
    expect(cjkPunctuation('中文 , 中文')).toBe('中文 , 中文');
  });

  it('gives the same result as §6 written out literally', () => {
    fc.assert(
      fc.property(mixedText, (text) => {
        expect(cjkPunctuation(text)).toBe(literalPunctuation(text));
      }),
      { numRuns: 2000 },
    );
  });
});

describe('the narrow transforms over a document', () => {
  it('rewrite only the formattable text', () => {
    const doc = '中文English,`中文code,x`[链接a](https://x.com/中文,a)\n\n```\n中文a,\n```\n';
    expect(applyTransform('cjk-spacing', doc)).toBe(
      '中文 English,`中文code,x`[链接 a](https://x.com/中文,a)\n\n```\n中文a,\n```\n',
    );
    expect(applyTransform('cjk-punctuation', doc)).toBe(
      '中文English,`中文code,x`[链接a](https://x.com/中文,a)\n\n```\n中文a,\n```\n',
    );
  });

  it('keep an escaped mark and a character reference', () => {
    expect(applyTransform('cjk-punctuation', '价格\\,很贵，&#x5176;实')).toBe('价格\\,很贵，&#x5176;实');
  });
});
