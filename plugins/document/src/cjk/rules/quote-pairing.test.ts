import { describe, expect, it } from 'vitest';
import { pairQuotes } from './quote-pairing.js';

const pairs = (text: string) =>
  pairQuotes(text).map(({ open, close, kind }) => [text.slice(open + 1, close), kind]);

describe('pairQuotes', () => {
  it('pairs straight quotes by context', () => {
    expect(pairs('say "hello" world')).toEqual([['hello', 'double']]);
    expect(pairs("'a' and 'b'")).toEqual([
      ['a', 'single'],
      ['b', 'single'],
    ]);
    expect(pairs('老师说"中文"然后')).toEqual([['中文', 'double']]);
  });

  it('skips apostrophes, possessives, decades and primes', () => {
    expect(pairs("don't it's Xiaolai's")).toEqual([]);
    expect(pairs("the '90s")).toEqual([]);
    expect(pairs('5\'10" tall')).toEqual([]);
    expect(pairs(`"don't give up"`)).toEqual([["don't give up", 'double']]);
  });

  it('lets a digit close an open quote', () => {
    expect(pairs('他说"第3"吧')).toEqual([['第3', 'double']]);
  });

  it('reads curly quotes by their glyph and nests', () => {
    expect(pairs('“a ‘b’ c”')).toEqual([
      ['a ‘b’ c', 'double'],
      ['b', 'single'],
    ]);
  });

  it('drops an unclosed inner quote when the outer pair closes', () => {
    expect(pairs(`"a 'b c" 'd'`)).toEqual([
      ["a 'b c", 'double'],
      ['d', 'single'],
    ]);
  });

  it('honours skipped positions', () => {
    expect(pairQuotes('"a" "b"', (index) => index === 0)).toHaveLength(1);
  });
});
