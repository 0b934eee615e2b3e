import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PatternError, replaceMatches, searchPattern } from './search-pattern.js';

const PLAIN = { caseSensitive: false, wholeWord: false, regex: false };
const REGEX = { ...PLAIN, regex: true, caseSensitive: true };

describe('searchPattern', () => {
  it('escapes typed text, so that every character means itself', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 20 }),
        fc.string({ maxLength: 20 }),
        (query, around) => {
          const text = `${around}${query}${around}`;
          const found = searchPattern(query, { ...PLAIN, caseSensitive: true }).exec(text);
          expect(found?.[0]).toBe(query);
        },
      ),
    );
  });

  it('refuses an empty query, a long one, and a regex that is not valid, in words', () => {
    expect(() => searchPattern('', PLAIN)).toThrow(PatternError);
    expect(() => searchPattern('x'.repeat(1_001), PLAIN)).toThrow(/at most 1000 characters/);
    expect(() => searchPattern('a[', REGEX)).toThrow(
      'This is not a valid regular expression: Unterminated character class',
    );
    expect(() => searchPattern('a{2,1}', REGEX)).toThrow(/numbers out of order/);
  });

  it('reads a whole word by letters of every script', () => {
    const pattern = searchPattern('über', { ...PLAIN, wholeWord: true });
    expect('Über übersicht über_x (über)'.match(pattern)).toEqual(['Über', 'über']);
  });
});

describe('replaceMatches', () => {
  it('does what String.prototype.replace does when nothing is skipped', () => {
    const templates = ['$&!', '[$1]', '$$', '$2$1', '$<w>-', '$9', '$10', 'plain', '$'];
    fc.assert(
      fc.property(fc.stringMatching(/^[ab \n-]{0,30}$/), fc.constantFrom(...templates), (text, template) => {
        const pattern = searchPattern('(?<w>a+)(b?)', REGEX);
        const expected = text.replace(new RegExp(pattern.source, pattern.flags), template);
        expect(replaceMatches(text, pattern, template, true, new Set()).text).toBe(expected);
      }),
    );
  });

  it('leaves the skipped matches, counts the replaced ones, and takes typed text as it is', () => {
    const pattern = searchPattern('cat', PLAIN);
    expect(replaceMatches('cat Cat cAt', pattern, '$&-dog', false, new Set([1]))).toEqual({
      text: '$&-dog Cat $&-dog',
      replaced: 2,
    });
  });

  it('steps over empty matches, as the search does', () => {
    const pattern = searchPattern('x*', REGEX);
    expect(replaceMatches('axxb', pattern, '-', true, new Set())).toEqual({ text: 'a-b', replaced: 1 });
  });
});
