import { describe, expect, it } from 'vitest';
import { normalizeFullwidthPunctuation } from './fullwidth-punctuation.js';

const f = normalizeFullwidthPunctuation;

describe('normalizeFullwidthPunctuation', () => {
  it('converts marks between CJK letters', () => {
    expect(f('你好,世界')).toBe('你好，世界');
    expect(f('中文,中文.中文!中文?中文;中文:中文')).toBe('中文，中文。中文！中文？中文；中文：中文');
  });

  it('converts marks with CJK on one side only', () => {
    expect(f('结束.')).toBe('结束。');
    expect(f('中文,English')).toBe('中文，English');
    expect(f('English,中文')).toBe('English，中文');
    expect(f('𠀀,English')).toBe('𠀀，English');
  });

  it('reads fullwidth brackets and clause marks as CJK context', () => {
    expect(f('（内容）,继续')).toBe('（内容），继续');
    expect(f('内容,「引用」')).toBe('内容，「引用」');
    expect(f('中,,')).toBe('中，，');
  });

  it('needs direct contact: a space makes it Western punctuation', () => {
    expect(f('中文 , English')).toBe('中文 , English');
    expect(f('Hello, world')).toBe('Hello, world');
  });

  it('leaves Korean alone', () => {
    expect(f('안녕,Hello')).toBe('안녕,Hello');
  });

  it('protects technical tokens (the Latin span scanner)', () => {
    expect(f('中文 https://example.com/path,query 中文')).toBe('中文 https://example.com/path,query 中文');
    expect(f('联系user@example.com获取')).toBe('联系user@example.com获取');
    expect(f('版本v0.3.11发布')).toBe('版本v0.3.11发布');
    expect(f('温度是3.14度')).toBe('温度是3.14度');
    expect(f('时间12:30开始')).toBe('时间12:30开始');
    expect(f('共1,000,000人')).toBe('共1,000,000人');
    expect(f('访问example.com查看')).toBe('访问example.com查看');
  });

  it('converts the sentence mark after a URL (it is not part of it)', () => {
    expect(f('见https://example.com/docs,然后')).toBe('见https://example.com/docs，然后');
  });

  it('leaves an ellipsis, an escaped mark and an ordered-list number', () => {
    expect(f('中文...中文')).toBe('中文...中文');
    expect(f('价格\\,很贵')).toBe('价格\\,很贵');
    expect(f('1.中文')).toBe('1.中文');
  });
});
