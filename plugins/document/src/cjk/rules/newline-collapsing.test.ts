import { describe, expect, it } from 'vitest';
import { collapseNewlines } from './newline-collapsing.js';

describe('collapseNewlines', () => {
  it('collapses three or more line breaks to one blank line', () => {
    expect(collapseNewlines('a\n\n\nb')).toBe('a\n\nb');
    expect(collapseNewlines('a\n\n  \n\n\nb')).toBe('a\n\nb');
    expect(collapseNewlines('a\r\n\r\n\r\nb')).toBe('a\r\n\r\nb');
  });

  it('keeps a single blank line', () => {
    expect(collapseNewlines('a\n\nb')).toBe('a\n\nb');
  });
});
