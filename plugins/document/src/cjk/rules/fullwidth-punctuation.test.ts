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

  it.each([
    ['a path with a CJK file name', '請看notes/中文筆記.md的內容'],
    ['a CJK file name alone', '打開中文筆記.md檔案'],
    ['a relative ./ path', '請看./x.md。'],
    ['a relative ../ path', '檔案在../docs/a.md裡'],
    ['a ./ path into a CJK folder', '在./中文資料夾/筆記.md中'],
    ['a Latin path', '見a/b.c的說明'],
    ['a name with digits', '圖片在images/圖1.png裡'],
    ['an upper-case extension', '請看README.MD說明'],
    ['a Windows path', '路徑是C:\\Users\\me\\筆記.txt嗎'],
    ['a Windows path with CJK folders', '存到D:\\資料\\報告.docx吧'],
    ['a dot folder', '看.github/workflows/ci.yml檔'],
    ['common extensions', '設定config.yaml、資料.json、腳本.py、樣式.css、圖.svg、壓縮.tar.gz都在'],
  ])('keeps the dots of %s', (_what, text) => {
    expect(f(text)).toBe(text);
  });

  it('still converts a sentence mark that only looks like the start of one', () => {
    expect(f('這是一句話.下一句')).toBe('這是一句話。下一句');
    expect(f('我喜歡它.Markdown很好')).toBe('我喜歡它。Markdown很好');
    expect(f('我很累.so what')).toBe('我很累。so what');
    expect(f('筆記.md,然後')).toBe('筆記.md，然後');
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
