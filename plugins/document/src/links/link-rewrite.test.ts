import { describe, expect, it } from 'vitest';
import { applyEdits, editsForMove } from './link-rewrite.js';

const FILES = ['index.md', 'notes/todo.md', 'notes/Plan.md', 'archive/todo.md', 'img/pic.png'];

/** `text` (the note at `note`) after `from` moved to `to`. */
const moved = (text: string, from: string, to: string, note = 'index.md', files = FILES) =>
  applyEdits(text, editsForMove(text, note, { from, to }, files));

describe('links to a file that moved', () => {
  it('keep a wikilink in its name form, with its heading and alias', () => {
    expect(moved('[[Plan]] and [[Plan#Week 1|this week]]', 'notes/Plan.md', 'notes/Roadmap.md')).toBe(
      '[[Roadmap]] and [[Roadmap#Week 1|this week]]',
    );
  });

  it('take the path when the new name would find another file first', () => {
    // From the root, `todo` finds notes/todo.md (the shorter path) before deeper/todo.md.
    expect(moved('[[Plan]]', 'notes/Plan.md', 'deeper/todo.md')).toBe('[[deeper/todo]]');
  });

  it('keep a wikilink written as a path as a path, and .md where it was written', () => {
    expect(moved('[[notes/Plan]] [[Plan.md]]', 'notes/Plan.md', 'later/Plan.md')).toBe(
      '[[later/Plan]] [[Plan.md]]',
    );
  });

  it('rewrite Markdown links relative to the note, encoded, with their fragment and title', () => {
    expect(moved('[p](notes/Plan.md#Goals "Plan")', 'notes/Plan.md', 'archive/2025/Big plan.md')).toBe(
      '[p](archive/2025/Big%20plan.md#Goals "Plan")',
    );
    expect(moved('[p](<notes/Plan.md>)', 'notes/Plan.md', 'a b/Plan.md')).toBe('[p](<a b/Plan.md>)');
    expect(moved('[p](/notes/Plan.md)', 'notes/Plan.md', 'x/Plan.md')).toBe('[p](/x/Plan.md)');
    expect(moved('[p](notes/Plan)', 'notes/Plan.md', 'x/Plan.md')).toBe('[p](x/Plan)');
    expect(moved('[p](notes/Plan.md)', 'notes/Plan.md', 'x/a(b)#c%.md')).toBe('[p](x/a%28b%29%23c%25.md)');
  });

  it('rewrite images, embeds and reference definitions', () => {
    const text = '![](img/pic.png) ![[pic.png]] [r][1]\n\n[1]: img/pic.png\n';
    expect(moved(text, 'img/pic.png', 'media/photo.png')).toBe(
      '![](media/photo.png) ![[photo.png]] [r][1]\n\n[1]: media/photo.png\n',
    );
  });

  it("follow the moved note's own relative links", () => {
    const text = '[i](../index.md) [t](todo.md) [[todo]] [self](#Top)';
    expect(moved(text, 'notes/Plan.md', 'a/b/Plan.md', 'notes/Plan.md')).toBe(
      '[i](../../index.md) [t](../../notes/todo.md) [[todo]] [self](#Top)',
    );
  });

  it('leave every other link and every other byte alone', () => {
    const text = '# T\n\n[[todo]] [o](https://x.org/Plan.md) `[[Plan]]` [m](missing.md)\r\n';
    expect(editsForMove(text, 'index.md', { from: 'notes/Plan.md', to: 'n/P.md' }, FILES)).toEqual([]);
  });
});
