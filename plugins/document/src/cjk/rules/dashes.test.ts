import { describe, expect, it } from 'vitest';
import { convertDashes, fixEmdashSpacing } from './dashes.js';

describe('convertDashes', () => {
  it('turns -- between CJK into a spaced —— (§6)', () => {
    expect(convertDashes('原因--结果')).toBe('原因 —— 结果');
    expect(convertDashes('测试---内容')).toBe('测试 —— 内容');
    expect(convertDashes('原因 -- 结果')).toBe('原因 —— 结果');
  });

  it('converts between CJK and a Latin word', () => {
    expect(convertDashes('hello--世界')).toBe('hello —— 世界');
    expect(convertDashes('你好--world')).toBe('你好 —— world');
  });

  it('puts no space next to fullwidth brackets and clause marks', () => {
    expect(convertDashes('」--「')).toBe('」——「');
    expect(convertDashes('中文，--中文')).toBe('中文，—— 中文');
  });

  it('handles a chain in one pass', () => {
    expect(convertDashes('甲--乙--丙')).toBe('甲 —— 乙 —— 丙');
  });

  it('leaves Latin-only hyphens, line edges and URLs', () => {
    expect(convertDashes('a--b')).toBe('a--b');
    expect(convertDashes('中文\n--\n中文')).toBe('中文\n--\n中文');
    expect(convertDashes('见https://x.com/a--b中文')).toBe('见https://x.com/a--b中文');
  });
});

describe('fixEmdashSpacing', () => {
  it('sets off —— with one space on each side', () => {
    expect(fixEmdashSpacing('text——more')).toBe('text —— more');
    expect(fixEmdashSpacing('中文  ——  中文')).toBe('中文 —— 中文');
  });

  it('puts no space next to fullwidth brackets', () => {
    expect(fixEmdashSpacing('」——text')).toBe('」—— text');
    expect(fixEmdashSpacing('中文——「引用」')).toBe('中文 ——「引用」');
  });

  it('keeps a longer dash run whole', () => {
    expect(fixEmdashSpacing('a————b')).toBe('a ———— b');
  });

  it('keeps the author spacing where a space would change the Markdown', () => {
    expect(fixEmdashSpacing('+——中文')).toBe('+—— 中文');
    expect(fixEmdashSpacing('*——中文')).toBe('*—— 中文');
    expect(fixEmdashSpacing('中文——$')).toBe('中文 ——$');
  });
});
