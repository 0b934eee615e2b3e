import { describe, expect, it } from 'vitest';
import { WHOLE_TEXT } from '../segments.js';
import { collapseSpaces } from './space-collapsing.js';

describe('collapseSpaces', () => {
  it('collapses a run of spaces inside a line (§6: 多个   空格 → 多个 空格)', () => {
    expect(collapseSpaces('多个   空格', WHOLE_TEXT)).toBe('多个 空格');
    expect(collapseSpaces('a  b\nc   d', WHOLE_TEXT)).toBe('a b\nc d');
  });

  it('keeps indentation', () => {
    expect(collapseSpaces('    code\n  item', WHOLE_TEXT)).toBe('    code\n  item');
  });

  it('collapses at an edge only next to an inline construct', () => {
    const inline = { ...WHOLE_TEXT, afterInline: true, beforeInline: true };
    expect(collapseSpaces('   中文   ', inline)).toBe(' 中文 ');
    // Next to line structure (a table pipe, a list marker) the spaces are padding.
    expect(collapseSpaces('   中文   ', { ...WHOLE_TEXT, atDocumentEnd: false })).toBe('   中文   ');
  });
});
