import { describe, expect, it } from 'vitest';
import { convertNestedCornerQuotes } from './nested-quotes.js';

describe('convertNestedCornerQuotes', () => {
  it('turns a quotation inside 「」 into 『』', () => {
    expect(convertNestedCornerQuotes('「包含‘嵌套’」')).toBe('「包含『嵌套』」');
    expect(convertNestedCornerQuotes("「包含'嵌套'」")).toBe('「包含『嵌套』」');
  });

  it('leaves quotations outside corner quotes and apostrophes inside them', () => {
    expect(convertNestedCornerQuotes('‘外面’')).toBe('‘外面’');
    expect(convertNestedCornerQuotes("「don't」")).toBe("「don't」");
  });
});
