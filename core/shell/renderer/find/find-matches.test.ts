import { SearchQuery } from '@codemirror/search';
import { EditorSelection, EditorState } from '@codemirror/state';
import { describe, expect, it } from 'vitest';
import { countMatches, matchLabel, patternProblem } from './find-matches.js';

const state = (doc: string, from = 0, to = from) =>
  EditorState.create({ doc, selection: EditorSelection.single(from, to) });

describe('countMatches', () => {
  const doc = 'Cat cat concat CAT';

  it('counts with and without case, and whole words only', () => {
    expect(countMatches(new SearchQuery({ search: 'cat' }), state(doc)).total).toBe(4);
    expect(countMatches(new SearchQuery({ search: 'cat', caseSensitive: true }), state(doc)).total).toBe(2);
    expect(countMatches(new SearchQuery({ search: 'cat', wholeWord: true }), state(doc)).total).toBe(3);
  });

  it('counts a regular expression, and says which match is selected', () => {
    const query = new SearchQuery({ search: 'c.t', regexp: true, caseSensitive: true });
    expect(countMatches(query, state(doc, 4, 7))).toEqual({ total: 2, current: 1, more: false });
  });

  it('has no matches for an empty or broken pattern, and never throws', () => {
    expect(countMatches(new SearchQuery({ search: '' }), state(doc)).total).toBe(0);
    expect(countMatches(new SearchQuery({ search: '(', regexp: true }), state(doc)).total).toBe(0);
  });
});

describe('patternProblem', () => {
  it('says why a regular expression does not compile', () => {
    expect(patternProblem('(unclosed', true)).toMatch(/regular expression|group/i);
    expect(patternProblem('[a-', true)).toBeDefined();
  });

  it('has nothing to say of a good pattern, or of plain text', () => {
    expect(patternProblem('a+b', true)).toBeUndefined();
    expect(patternProblem('(', false)).toBeUndefined();
  });
});

describe('matchLabel', () => {
  it('words the count', () => {
    expect(matchLabel({ total: 0, current: 0, more: false })).toBe('No matches');
    expect(matchLabel({ total: 1, current: 0, more: false })).toBe('1 match');
    expect(matchLabel({ total: 12, current: 3, more: false })).toBe('3 of 12');
    expect(matchLabel({ total: 10000, current: 0, more: true })).toBe('10000+ matches');
  });
});
