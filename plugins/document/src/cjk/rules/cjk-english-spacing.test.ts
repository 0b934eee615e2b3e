import { describe, expect, it } from 'vitest';
import { addCjkEnglishSpacing } from './cjk-english-spacing.js';

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
