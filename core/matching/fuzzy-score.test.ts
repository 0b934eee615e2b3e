import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fuzzyPositions, fuzzyScore, rankMatches } from './fuzzy-score.js';

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

/**
 * The scorer's recurrence over the whole table (every row over every column), as it was before
 * the rows were narrowed to the columns an alignment can use: the narrowed one must agree.
 */
function wholeTableScore(query: string, text: string): number | null {
  const q = query.replaceAll(' ', '').toLowerCase();
  const lower = text.toLowerCase();
  if (q.length === 0) return 0;
  const bonus = (j: number) => {
    if (j === 0) return 16;
    const before = text[j - 1] ?? '';
    if (' /\\-_.:'.includes(before)) return 8;
    const up = (c: string) => c !== c.toLowerCase() && c === c.toUpperCase();
    return up(text[j] ?? '') && !up(before) ? 7 : 0;
  };
  let previous = [...lower].map((c, j) => (c === q[0] ? 16 + bonus(j) - j * 0.1 : -Infinity));
  for (let i = 1; i < q.length; i++) {
    const current = previous.map((_, j) => {
      if (j < i || lower[j] !== q[i]) return -Infinity;
      let best = (previous[j - 1] ?? -Infinity) + 8;
      for (let k = 0; k <= j - 2; k++) best = Math.max(best, previous[k]! - 3 - (j - k - 2));
      return best > -Infinity ? best + 16 + bonus(j) : -Infinity;
    });
    previous = current;
  }
  const score = Math.max(-Infinity, ...previous);
  return score === -Infinity ? null : score;
}

/** The score of one alignment, as the scorer counts it. */
function scoreOfPositions(text: string, positions: readonly number[]): number {
  const bonus = (j: number) =>
    j === 0
      ? 16
      : ' /\\-_.:'.includes(text[j - 1]!)
        ? 8
        : /[A-Z]/.test(text[j]!) && !/[A-Z]/.test(text[j - 1]!)
          ? 7
          : 0;
  let score = 16 + bonus(positions[0]!) - positions[0]! * 0.1;
  for (let i = 1; i < positions.length; i++) {
    const gap = positions[i]! - positions[i - 1]! - 1;
    score += 16 + bonus(positions[i]!) + (gap === 0 ? 8 : -3 - (gap - 1));
  }
  return score;
}

describe('the narrowed table', () => {
  const letters = fc.constantFrom(...'abcAB/-_.x ');
  const text = fc.array(letters, { maxLength: 24 }).map((a) => a.join(''));
  const query = fc.array(fc.constantFrom(...'abx'), { maxLength: 5 }).map((a) => a.join(''));

  it('scores as the whole table does', () => {
    fc.assert(
      fc.property(query, text, (q, t) => {
        const ours = fuzzyScore(q, t);
        const whole = wholeTableScore(q, t);
        if (whole === null) return ours === null;
        return ours !== null && Math.abs(ours - whole) < 1e-9;
      }),
      { numRuns: 2000 },
    );
  });

  it('gives positions that spell the query and score what the scorer says', () => {
    fc.assert(
      fc.property(
        query.filter((q) => q.length > 0),
        text,
        (q, t) => {
          const positions = fuzzyPositions(q, t);
          const score = fuzzyScore(q, t);
          if (score === null) return positions === null;
          if (positions === null) return false;
          const spelled = positions.map((p) => t[p]!.toLowerCase()).join('');
          const ascending = positions.every((p, i) => i === 0 || p > positions[i - 1]!);
          return spelled === q && ascending && Math.abs(scoreOfPositions(t, positions) - score) < 1e-9;
        },
      ),
      { numRuns: 2000 },
    );
  });
});
