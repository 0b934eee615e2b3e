import { describe, expect, it } from 'vitest';
import { fuzzyScore, rankMatches } from './fuzzy-score.js';

const best = (query: string, candidates: string[]) =>
  rankMatches(query, candidates, (c) => c, [], candidates.length).map((r) => r.item);

describe('fuzzyScore', () => {
  it('refuses a candidate missing a character or holding them out of order', () => {
    expect(fuzzyScore('xyz', 'Toggle Outline')).toBeNull();
    expect(fuzzyScore('ot', 'to')).toBeNull();
    expect(fuzzyScore('', 'anything')).toBe(0);
  });

  it('is case-insensitive and ignores spaces in the query', () => {
    expect(fuzzyScore('SAVE', 'save file')).not.toBeNull();
    expect(fuzzyScore('sa ve', 'save')).toBe(fuzzyScore('save', 'save'));
  });

  it('ranks a prefix above the same letters later', () => {
    expect(best('set', ['Reset Zoom', 'Settings'])).toEqual(['Settings', 'Reset Zoom']);
  });

  it('ranks word starts above letters inside words', () => {
    expect(best('tp', ['Output', 'Toggle Panel'])).toEqual(['Toggle Panel', 'Output']);
  });

  it('counts camel humps as word starts', () => {
    expect(best('cp', ['chapter', 'commandPalette'])).toEqual(['commandPalette', 'chapter']);
  });

  it('prefers fewer, shorter gaps', () => {
    expect(best('note', ['n-o-t-e.md', 'notes/index.md'])).toEqual(['notes/index.md', 'n-o-t-e.md']);
    expect(best('abc', ['a____b____c', 'a_b_c'])).toEqual(['a_b_c', 'a____b____c']);
  });

  it('finds a file by its name’s start across its folders', () => {
    const files = ['journal/2024/meeting-notes.md', 'meta/tags.md', 'projects/mnemonic.md'];
    expect(best('mtn', files)[0]).toBe('journal/2024/meeting-notes.md');
  });
});

describe('rankMatches', () => {
  it('puts recent matches first, most recent first, and drops those that do not match', () => {
    const items = ['alpha.md', 'beta.md', 'alphabet.md', 'gamma.md'];
    const ranked = rankMatches('al', items, (i) => i, ['alphabet.md', 'gamma.md'], 10).map((r) => r.item);
    expect(ranked).toEqual(['alphabet.md', 'alpha.md']);
  });

  it('answers at most the limit', () => {
    const items = Array.from({ length: 100 }, (_, i) => `note-${i}.md`);
    expect(rankMatches('note', items, (i) => i, [], 7)).toHaveLength(7);
  });

  it('lists the recent ones first for an empty query', () => {
    const ranked = rankMatches('', ['a', 'b', 'c'], (i) => i, ['c'], 3).map((r) => r.item);
    expect(ranked).toEqual(['c', 'a', 'b']);
  });
});
