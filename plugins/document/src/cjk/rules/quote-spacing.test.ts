import { describe, expect, it } from 'vitest';
import { fixDoubleQuoteSpacing, fixSingleQuoteSpacing } from './quote-spacing.js';

describe('fixDoubleQuoteSpacing', () => {
  it('spaces a curly quotation from touching words', () => {
    expect(fixDoubleQuoteSpacing("老师说“don't give up”然后")).toBe("老师说 “don't give up” 然后");
    expect(fixDoubleQuoteSpacing('word“a”and“b”end')).toBe('word “a” and “b” end');
    expect(fixDoubleQuoteSpacing('——“引用”——')).toBe('—— “引用” ——');
  });

  it('puts no space next to fullwidth marks, Hangul, or where one already is', () => {
    expect(fixDoubleQuoteSpacing('，“引用”。')).toBe('，“引用”。');
    expect(fixDoubleQuoteSpacing('「“引用”」')).toBe('「“引用”」');
    expect(fixDoubleQuoteSpacing('한글“text”')).toBe('한글“text”');
    expect(fixDoubleQuoteSpacing('word “text” word')).toBe('word “text” word');
  });

  it('leaves straight quotes and corner brackets', () => {
    expect(fixDoubleQuoteSpacing('word"text"word')).toBe('word"text"word');
    expect(fixDoubleQuoteSpacing('中文「引用」中文')).toBe('中文「引用」中文');
  });
});

describe('fixSingleQuoteSpacing', () => {
  it('spaces a curly single quotation', () => {
    expect(fixSingleQuoteSpacing('测试‘hello’内容')).toBe('测试 ‘hello’ 内容');
  });

  it('leaves apostrophes typed as ’', () => {
    expect(fixSingleQuoteSpacing('don’t and Xiaolai’s')).toBe('don’t and Xiaolai’s');
  });
});
