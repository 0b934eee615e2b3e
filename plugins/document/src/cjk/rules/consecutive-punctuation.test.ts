import { describe, expect, it } from 'vitest';
import { limitConsecutivePunctuation } from './consecutive-punctuation.js';

describe('limitConsecutivePunctuation', () => {
  it('cuts repeated fullwidth marks to the limit', () => {
    expect(limitConsecutivePunctuation('太棒了！！！', 1)).toBe('太棒了！');
    expect(limitConsecutivePunctuation('真的吗？？？', 2)).toBe('真的吗？？');
    expect(limitConsecutivePunctuation('好。。。', 1)).toBe('好。');
  });

  it('does nothing at 0 and leaves mixed runs', () => {
    expect(limitConsecutivePunctuation('太棒了！！！', 0)).toBe('太棒了！！！');
    expect(limitConsecutivePunctuation('什么？！', 1)).toBe('什么？！');
  });
});
