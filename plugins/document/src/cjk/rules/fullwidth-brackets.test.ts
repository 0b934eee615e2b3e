import { describe, expect, it } from 'vitest';
import { normalizeFullwidthBrackets } from './fullwidth-brackets.js';

describe('normalizeFullwidthBrackets', () => {
  it('converts brackets around CJK text', () => {
    expect(normalizeFullwidthBrackets('[重点]')).toBe('【重点】');
    expect(normalizeFullwidthBrackets('text[备注]end')).toBe('text【备注】end');
  });

  it('leaves Latin, Korean and anything shaped like a link', () => {
    expect(normalizeFullwidthBrackets('[link]')).toBe('[link]');
    expect(normalizeFullwidthBrackets('[안녕하세요]')).toBe('[안녕하세요]');
    expect(normalizeFullwidthBrackets('[中文](url)')).toBe('[中文](url)');
    expect(normalizeFullwidthBrackets('[中文][ref]')).toBe('[中文][ref]');
    expect(normalizeFullwidthBrackets('[中文]: url')).toBe('[中文]: url');
    expect(normalizeFullwidthBrackets('![中文]')).toBe('![中文]');
  });
});
