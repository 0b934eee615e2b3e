import { describe, expect, it } from 'vitest';
import { DEFAULT_CJK_FORMATTING } from '../settings.js';
import { convertSmartQuotes } from './smart-quotes.js';

const q = (text: string, overrides: Partial<typeof DEFAULT_CJK_FORMATTING> = {}) =>
  convertSmartQuotes(text, { ...DEFAULT_CJK_FORMATTING, ...overrides });

describe('convertSmartQuotes', () => {
  it('curls quotes that touch CJK, keeping apostrophes (§6: "don\'t give up" → “don\'t give up”)', () => {
    expect(q(`老师说"don't give up"然后`)).toBe(`老师说“don't give up”然后`);
    expect(q(`"中文内容"`)).toBe('“中文内容”');
    expect(q(`他说'你好'`)).toBe('他说‘你好’');
  });

  it('leaves pure-Latin pairs straight when contextual, curls them otherwise', () => {
    expect(q(`中文 "hello" 中文`)).toBe(`中文 "hello" 中文`);
    expect(q(`中文 "hello" 中文`, { contextualQuotes: false })).toBe('中文 “hello” 中文');
  });

  it('uses corner brackets only for Chinese text (U+4E00–U+9FFF)', () => {
    const corner = { cjkCornerQuotes: true };
    expect(q(`"中文"`, corner)).toBe('「中文」');
    expect(q(`"日本語"`, corner)).toBe('「日本語」');
    expect(q(`他说'嵌套'`, corner)).toBe('他说『嵌套』');
    expect(q(`说"ひらがな"`, corner)).toBe('说“ひらがな”');
    expect(q(`说"hello"`, corner)).toBe('说“hello”');
    expect(q('“中文”', corner)).toBe('「中文」');
    expect(q(`"中文"`, { quoteStyle: 'corner' })).toBe('「中文」');
  });

  it('uses guillemets when asked', () => {
    expect(q(`说"中文"`, { quoteStyle: 'guillemets' })).toBe('说«中文»');
    expect(q(`说'中文'`, { quoteStyle: 'guillemets' })).toBe('说‹中文›');
  });

  it('never turns a typed curly quote back into a straight one', () => {
    expect(q('中文 “hello” 中文')).toBe('中文 “hello” 中文');
  });

  it('leaves orphans, primes and quotes inside URLs', () => {
    expect(q('中文"未闭合')).toBe('中文"未闭合');
    expect(q(`身高5'10"左右`)).toBe(`身高5'10"左右`);
    expect(q(`见https://x.com/?q="a"中文`)).toBe(`见https://x.com/?q="a"中文`);
  });
});
