import { describe, expect, it } from 'vitest';
import { rankMatches } from './fuzzy-score.js';
import { PathIndex } from './path-index.js';

const paths = ['notes/meeting.md', 'notes/menu.md', 'journal/monday.md', 'ideas/mint-tea.md', 'a/b.md'];

describe('PathIndex', () => {
  it('answers keystroke by keystroke exactly what ranking every path answers', () => {
    const index = new PathIndex();
    index.set(paths);
    for (const query of ['m', 'me', 'mee', 'meet', 'me', 'mt', 'mte', 'zz', 'zzm']) {
      const full = rankMatches(query, paths, (p) => p, [], 10);
      expect(index.query(query, [], 10)).toEqual(full);
    }
  });

  it('starts over when the paths change, and passes over recent files that are gone', () => {
    const index = new PathIndex();
    index.set(paths);
    expect(index.query('mo', [], 10).map((r) => r.item)).toEqual(['journal/monday.md']);
    index.set([...paths, 'people/mo.md']);
    expect(index.query('mon', ['gone/mon.md', 'people/mo.md'], 10).map((r) => r.item)).toEqual([
      'journal/monday.md',
    ]);
    expect(index.query('mo', ['gone/mo.md', 'people/mo.md'], 10).map((r) => r.item)[0]).toBe('people/mo.md');
  });
});
