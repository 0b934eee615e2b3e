import { describe, expect, it } from 'vitest';
import { headingLine, outline } from './outline.js';

describe("a note's outline", () => {
  it('lists ATX and setext headings in order with their level, text and start', () => {
    const text = '# One\n\ntext\n\nTwo\n===\n\n### Three ###\n\nFour\n---\n';
    expect(outline(text)).toEqual([
      { level: 1, text: 'One', from: 0 },
      { level: 1, text: 'Two', from: text.indexOf('Two') },
      { level: 3, text: 'Three', from: text.indexOf('### Three') },
      { level: 2, text: 'Four', from: text.indexOf('Four') },
    ]);
  });

  it('counts a heading inside a quote or a list item', () => {
    expect(outline('> ## Quoted\n\n- # Listed\n').map((h) => h.text)).toEqual(['Quoted', 'Listed']);
  });

  it('finds no heading in code, a code block or front matter', () => {
    expect(outline('---\ntitle: x\n---\n```\n# not\n```\n\n    # not either\n')).toEqual([]);
  });

  it('keeps inline Markdown in the text as written', () => {
    expect(outline('## A *b* `c`\n')).toEqual([{ level: 2, text: 'A *b* `c`', from: 0 }]);
  });
});

describe('the line of a linked heading', () => {
  const text = '---\ntitle: x\n---\n# Top\n\n```\n## Second  Part\n```\n\n## Second  part\n';

  it('finds the heading by its text, case and runs of spaces ignored, none in code', () => {
    expect(headingLine(text, 'Top')).toBe(4);
    expect(headingLine(text, 'second part')).toBe(10);
    expect(headingLine(text, 'title: x')).toBeNull();
    expect(headingLine(text, 'Missing')).toBeNull();
  });
});
