import { describe, expect, it } from 'vitest';
import { checkIntegrity, CJK_INTEGRITY_MESSAGE, CjkIntegrityError, contentSkeleton } from './index.js';
import { assertIntegrity, assertMappedIntegrity, checkMappedIntegrity } from './integrity.js';
import { findProtectedRegions } from './protected-regions.js';

describe('contentSkeleton', () => {
  it('keeps letters, digits and symbols, folds width, drops whitespace and punctuation', () => {
    expect(contentSkeleton('Ａ１ 中文，“引用”—— $100%')).toBe('A1中文引用$100');
    expect(contentSkeleton('学习 TypeScript，')).toBe(contentSkeleton('学习TypeScript,'));
  });
});

describe('checkIntegrity', () => {
  it('accepts what the rules do', () => {
    expect(checkIntegrity('学习TypeScript,`a,b`很好.', '学习 TypeScript，`a,b` 很好。')).toBeNull();
  });

  it('refuses a changed protected region', () => {
    expect(checkIntegrity('中文`a,b`', '中文`a，b`')).toMatchObject({
      check: 'structure',
      before: 1,
      after: 1,
      firstDifference: 0,
    });
  });

  it.each([
    ['a code block', '中文\n\n```\na,b\n```\n', '中文\n\n```\na，b\n```\n'],
    ['inline code', '中文`a,b`', '中文`a，b`'],
    ['a link destination', '见[文档](https://example.com/a,b)', '见[文档](https://example.com/a，b)'],
    ['an autolink', '见<https://example.com/a,b>', '见<https://example.com/a，b>'],
    ['math', '公式$a,b$很好', '公式$a，b$很好'],
    ['front matter', '---\ntitle: a,b\n---\n中文', '---\ntitle: a，b\n---\n中文'],
    ['HTML', '中文<span title="a,b">x</span>', '中文<span title="a，b">x</span>'],
    ['a character reference', '中文&amp;,', '中文&amp；,'],
  ])('refuses a change inside %s', (_name, before, after) => {
    expect(checkIntegrity(before, after)).toMatchObject({ check: 'structure' });
    expect(() => assertIntegrity(before, after)).toThrow(CjkIntegrityError);
  });

  it('refuses created or destroyed markup', () => {
    expect(checkIntegrity('a _ b _ c', 'a _b_ c')).toMatchObject({ check: 'structure', before: 0, after: 2 });
    expect(checkIntegrity('$ 5 and 6$ x', '$5 and 6$ x')).toMatchObject({
      check: 'structure',
      before: 0,
      after: 1,
    });
  });

  it('refuses lost, added or reordered letters', () => {
    expect(checkIntegrity('中文English', '中文 Englis')).toEqual({
      check: 'content',
      before: 9,
      after: 8,
      firstDifference: 0,
    });
    expect(checkIntegrity('甲乙', '乙甲')).toMatchObject({ check: 'content', firstDifference: 0 });
    // A letter moved across a protected region is caught too.
    expect(checkIntegrity('甲`x`乙', '`x`甲乙')).toMatchObject({ check: 'content', firstDifference: 0 });
  });

  it('throws the seed message', () => {
    expect(() => assertIntegrity('甲', '乙')).toThrow(CjkIntegrityError);
    expect(() => assertIntegrity('甲', '乙')).toThrow(CJK_INTEGRITY_MESSAGE);
    expect(CJK_INTEGRITY_MESSAGE).toBe('cjk-format refused: the result did not match the input');
  });
});

describe('checkMappedIntegrity', () => {
  const before = '中文`a,b`很好.';
  const regions = findProtectedRegions(before);
  const starts = (after: string) =>
    Int32Array.from(regions, (region) => after.indexOf(before.slice(region.from, region.to)));

  it('accepts what the rules do, by the chunk map', () => {
    const after = '中文 `a,b` 很好。';
    expect(checkMappedIntegrity(before, after, regions, starts(after))).toBeNull();
  });

  it('refuses a region that is not where the map says, or a map of the wrong size', () => {
    const after = '中文 `a,b` 很好。';
    const shifted = starts(after).map((start) => start + 1);
    expect(checkMappedIntegrity(before, after, regions, shifted)).toMatchObject({ check: 'structure' });
    expect(checkMappedIntegrity(before, after, regions, [])).toMatchObject({ check: 'structure' });
    expect(checkMappedIntegrity(before, '中文`a，b`很好.', regions, starts('中文`a,b`很好.'))).toMatchObject({
      check: 'structure',
      firstDifference: 0,
    });
  });

  it('refuses a lost letter and throws the seed message', () => {
    const after = '中 `a,b` 很好。';
    expect(checkMappedIntegrity(before, after, regions, starts(after))).toMatchObject({
      check: 'content',
      firstDifference: 0,
    });
    expect(() => assertMappedIntegrity(before, after, regions, starts(after))).toThrow(CJK_INTEGRITY_MESSAGE);
  });
});
