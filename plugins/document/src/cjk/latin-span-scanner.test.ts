import { describe, expect, it } from 'vitest';
import { technicalMask } from './latin-span-scanner.js';

/** The masked substrings of `text`. */
function tokens(text: string): string[] {
  const mask = technicalMask(text);
  const found: string[] = [];
  let start = -1;
  for (let index = 0; index <= text.length; index++) {
    if (mask[index] === 1 && start === -1) start = index;
    if (mask[index] !== 1 && start !== -1) {
      found.push(text.slice(start, index));
      start = -1;
    }
  }
  return found;
}

describe('technicalMask', () => {
  it('finds URLs, stopping at CJK and before sentence punctuation', () => {
    expect(tokens('访问https://example.com/docs获取')).toEqual(['https://example.com/docs']);
    expect(tokens('见 https://example.com/a?b=1,2.')).toEqual(['https://example.com/a?b=1,2']);
    expect(tokens('(see https://en.wikipedia.org/wiki/A_(b))')).toEqual([
      'https://en.wikipedia.org/wiki/A_(b)',
    ]);
    expect(tokens('去www.example.com看')).toEqual(['www.example.com']);
  });

  it('finds e-mail addresses, versions, times, thousands, domains and decimals', () => {
    expect(tokens('联系user@example.com')).toEqual(['user@example.com']);
    expect(tokens('版本v1.2.3和1.2.3.4')).toEqual(['v1.2.3', '1.2.3.4']);
    expect(tokens('时间12:30或1:30:00')).toEqual(['12:30', '1:30:00']);
    expect(tokens('共1,000,000人')).toEqual(['1,000,000']);
    expect(tokens('用Node.js和example.com')).toEqual(['Node.js', 'example.com']);
    expect(tokens('约3.14倍')).toEqual(['3.14']);
  });

  it('finds nothing in prose', () => {
    expect(tokens('Hello, world. e.g. wait...ok 中文,English')).toEqual([]);
  });
});
