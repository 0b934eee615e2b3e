import { describe, expect, it } from 'vitest';
import { linkRewrites, rewriteLinks } from './move-links.js';

const FILES = ['index.md', 'notes/Plan.md', 'notes/todo.md', 'img/pic.png', 'Plan notes.md'];

describe('the links a move rewrites, as the filesMoved hook asks', () => {
  it('rewrites each form of link to a renamed note and counts them', () => {
    const text = '[[Plan]], [[Plan#Goals|goals]], [p](notes/Plan.md) and [[todo]]';
    expect(
      rewriteLinks(text, 'index.md', [{ from: 'notes/Plan.md', to: 'notes/Roadmap.md' }], FILES),
    ).toEqual({
      text: '[[Roadmap]], [[Roadmap#Goals|goals]], [p](notes/Roadmap.md) and [[todo]]',
      count: 3,
    });
  });

  it('leaves a note with no link to the moved file alone (null), even one naming it in code', () => {
    expect(
      rewriteLinks('`[[Plan]]` and Plan', 'index.md', [{ from: 'notes/Plan.md', to: 'x/Plan.md' }], FILES),
    ).toBe(null);
  });

  it("follows a folder's move file by file, counting only links that read differently in the end", () => {
    const moves = [
      { from: 'notes/Plan.md', to: 'archive/notes/Plan.md' },
      { from: 'notes/todo.md', to: 'archive/notes/todo.md' },
    ];
    // Plan's relative link to todo moves with both: it reads the same afterwards.
    expect(rewriteLinks('[t](todo.md) [i](../index.md)', 'notes/Plan.md', moves, FILES)).toEqual({
      text: '[t](todo.md) [i](../../index.md)',
      count: 1,
    });
    expect(rewriteLinks('[a](notes/Plan.md) [b](notes/todo.md)', 'index.md', moves, FILES)?.count).toBe(2);
  });

  it('offers one rewrite per Markdown note, at its path after the move', () => {
    const rewrites = linkRewrites({
      root: '/vault',
      moves: [{ from: 'notes/Plan.md', to: 'Roadmap.md' }],
      files: FILES,
      rewrites: [],
    });
    expect(rewrites.map((r) => r.path)).toEqual(['index.md', 'Roadmap.md', 'notes/todo.md', 'Plan notes.md']);
    expect(rewrites[0]!.rewrite('[[Plan]]')).toEqual({ text: '[[Roadmap]]', count: 1 });
  });
});
