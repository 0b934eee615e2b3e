import { describe, expect, it } from 'vitest';
import { addCjkParenthesisSpacing, normalizeFullwidthParentheses } from './parentheses.js';

describe('addCjkParenthesisSpacing', () => {
  it('sets half-width parentheses off from CJK', () => {
    expect(addCjkParenthesisSpacing('测试(text)')).toBe('测试 (text)');
    expect(addCjkParenthesisSpacing('(text)测试')).toBe('(text) 测试');
  });

  it('leaves fullwidth parentheses and Korean', () => {
    expect(addCjkParenthesisSpacing('测试（内容）测试')).toBe('测试（内容）测试');
    expect(addCjkParenthesisSpacing('한국(text)')).toBe('한국(text)');
  });
});

describe('normalizeFullwidthParentheses', () => {
  it('converts parentheses around CJK text', () => {
    expect(normalizeFullwidthParentheses('(注意)')).toBe('（注意）');
    expect(normalizeFullwidthParentheses('text(测试)more')).toBe('text（测试）more');
    expect(normalizeFullwidthParentheses('还有( 括号 )以及')).toBe('还有（括号）以及');
  });

  it('drops the spaces outside the converted parentheses', () => {
    expect(normalizeFullwidthParentheses('中文 (注意) 中文')).toBe('中文（注意）中文');
  });

  it('keeps indentation and the space next to a sticky character', () => {
    expect(normalizeFullwidthParentheses('  (注意)')).toBe('  （注意）');
    expect(normalizeFullwidthParentheses('$ (注意)')).toBe('$ （注意）');
    expect(normalizeFullwidthParentheses('(注意 $ )')).toBe('（注意 $ ）');
  });

  it('leaves Latin, numeric and Korean contents', () => {
    expect(normalizeFullwidthParentheses('(abc)')).toBe('(abc)');
    expect(normalizeFullwidthParentheses('(123)')).toBe('(123)');
    expect(normalizeFullwidthParentheses('(안녕하세요)')).toBe('(안녕하세요)');
  });
});
