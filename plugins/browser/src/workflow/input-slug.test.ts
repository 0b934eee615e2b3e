import { describe, expect, it } from 'vitest';
import { INPUT_SLUG_MAX, inputSlug, InputSlugs } from './input-slug.js';

describe('inputSlug', () => {
  it('turns runs of other characters into one "_" and trims them', () => {
    expect(inputSlug('Email address', 3)).toBe('Email_address');
    expect(inputSlug('  --Search the site!--  ', 1)).toBe('Search_the_site');
    expect(inputSlug('first.name / given', 1)).toBe('first_name_given');
  });

  it('applies NFKC first: full-width letters and ligatures become ASCII', () => {
    expect(inputSlug('Ｅｍａｉｌ', 1)).toBe('Email');
    expect(inputSlug('ﬁle №', 1)).toBe('file_No');
  });

  it('puts field_ before a digit, and falls back to field_<event number> when nothing is left', () => {
    expect(inputSlug('2nd line', 4)).toBe('field_2nd_line');
    expect(inputSlug('搜索', 7)).toBe('field_7');
    expect(inputSlug('', 2)).toBe('field_2');
    expect(inputSlug('___', 5)).toBe('field_5');
  });

  it('keeps at most 60 characters, never ending in "_"', () => {
    expect(inputSlug('a'.repeat(100), 1)).toBe('a'.repeat(60));
    expect(inputSlug(`${'b'.repeat(59)} c`, 1)).toBe('b'.repeat(59));
    expect(inputSlug('9'.repeat(80), 1)).toBe(`field_${'9'.repeat(54)}`);
  });
});

describe('InputSlugs', () => {
  it('uniquifies with _2, _3… within a 60-character cap, in the order handed out', () => {
    const slugs = new InputSlugs();
    expect([
      slugs.take('Email', 1),
      slugs.take('email', 2),
      slugs.take('Email', 3),
      slugs.take('Email', 4),
    ]).toEqual(['Email', 'email', 'Email_2', 'Email_3']);
    const long = 'x'.repeat(70);
    expect(slugs.take(long, 5)).toBe('x'.repeat(INPUT_SLUG_MAX));
    expect(slugs.take(long, 6)).toBe(`${'x'.repeat(INPUT_SLUG_MAX - 2)}_2`);
    expect(slugs.list()).toEqual([
      'Email',
      'email',
      'Email_2',
      'Email_3',
      'x'.repeat(60),
      `${'x'.repeat(58)}_2`,
    ]);
  });
});
