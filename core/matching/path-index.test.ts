import { describe, expect, it } from 'vitest';
import { fuzzyScore } from './fuzzy-score.js';
import { PathIndex } from './path-index.js';

const paths = ['notes/meeting.md', 'notes/menu.md', 'journal/monday.md', 'ideas/mint-tea.md', 'a/b.md'];

/** What ranking every path by score (ties in list order) answers, without the index. */
function rankAll(query: string, list: readonly string[], limit: number): { item: string; score: number }[] {
  return list
    .map((item) => ({ item, score: fuzzyScore(query, item) }))
    .filter((r): r is { item: string; score: number } => r.score !== null)
    .sort((a, b) => b.score - a.score)
    .slice(0, limit);
}

describe('PathIndex', () => {
  it('answers keystroke by keystroke exactly what ranking every path answers', () => {
    const index = new PathIndex();
    index.set(paths);
    for (const query of ['m', 'me', 'mee', 'meet', 'me', 'mt', 'mte', 'zz', 'zzm']) {
      const got = index.query(query, [], 10).map(({ item, score }) => ({ item, score }));
      expect(got).toEqual(rankAll(query, paths, 10));
    }
  });

  it('keeps only the limit best, whatever order they come in', () => {
    const many = Array.from({ length: 300 }, (_, i) => `f${(i * 7919) % 300}/note-${i}.md`);
    const index = new PathIndex();
    index.set(many);
    expect(index.query('n1', [], 7).map(({ item, score }) => ({ item, score }))).toEqual(
      rankAll('n1', many, 7),
    );
  });

  it('gives the positions of the matched characters', () => {
    const index = new PathIndex();
    index.set(paths);
    const [first] = index.query('mtea', [], 1);
    expect(first?.item).toBe('ideas/mint-tea.md');
    expect(first?.positions.map((p) => first.item[p]).join('')).toBe('mtea');
  });

  it('follows added and deleted paths', () => {
    const index = new PathIndex();
    index.set(paths);
    expect(index.query('mo', [], 10).map((r) => r.item)).toEqual(['journal/monday.md']);
    index.add('people/mo.md');
    expect(index.query('mo', [], 10).map((r) => r.item)).toContain('people/mo.md');
    index.delete('journal/monday.md');
    expect(index.query('mon', [], 10).map((r) => r.item)).toEqual([]);
    expect(index.size).toBe(5);
  });

  it('ranks the more recent of equal scores first, never a weaker match above a stronger', () => {
    const index = new PathIndex();
    index.set(['x/note-1.md', 'x/note-2.md', 'notes.md']);
    const recent = ['x/note-2.md', 'gone/note.md'];
    expect(index.query('note', recent, 10).map((r) => r.item)).toEqual([
      'notes.md',
      'x/note-2.md',
      'x/note-1.md',
    ]);
  });

  it('lists the recent paths that still exist first for an empty query, then the others', () => {
    const index = new PathIndex();
    index.set(paths);
    const listed = index.query('', ['a/b.md', 'gone.md', 'notes/menu.md'], 4).map((r) => r.item);
    expect(listed).toEqual(['a/b.md', 'notes/menu.md', 'notes/meeting.md', 'journal/monday.md']);
  });
});
