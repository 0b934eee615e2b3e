import { describe, expect, it } from 'vitest';
import { frontMatterLength } from './front-matter.js';

/** The front matter `frontMatterLength` finds, as text. */
const found = (text: string) => text.slice(0, frontMatterLength(text));

describe('frontMatterLength', () => {
  it('runs from a first-line fence to the next --- or ... line', () => {
    expect(found('---\na: 1\n---\nbody')).toBe('---\na: 1\n---');
    expect(found('---\na: 1\n...\nbody')).toBe('---\na: 1\n...');
    expect(found('---\na: 1\n---')).toBe('---\na: 1\n---');
  });

  it('takes empty front matter: the second line may close it', () => {
    expect(found('---\n---\n')).toBe('---\n---');
    expect(found('---\n---\nbody')).toBe('---\n---');
    expect(found('---\r\n---\r\nbody')).toBe('---\r\n---');
  });

  it('reads CRLF lines and fence lines with trailing blanks', () => {
    expect(found('---\r\na: 1\r\n---\r\nbody')).toBe('---\r\na: 1\r\n---');
    expect(found('--- \t\na: 1\n---  \nbody')).toBe('--- \t\na: 1\n---  ');
  });

  it('allows a byte-order mark before the opening fence, and only there', () => {
    expect(found('\uFEFF---\na: 1\n...\n')).toBe('\uFEFF---\na: 1\n...');
    expect(frontMatterLength('\uFEFF\uFEFF---\na: 1\n---\n')).toBe(0);
  });

  it('closes at the first fence line even after a ``` line: nothing inside is Markdown', () => {
    expect(found('---\nscript: |\n  ```\n---\n```\n')).toBe('---\nscript: |\n  ```\n---');
  });

  it('is none when unclosed, not first, or opened by something else', () => {
    expect(frontMatterLength('---\na: 1\nbody')).toBe(0);
    expect(frontMatterLength('---')).toBe(0);
    expect(frontMatterLength('---\n')).toBe(0);
    expect(frontMatterLength('intro\n---\na: 1\n---')).toBe(0);
    expect(frontMatterLength('```\n---\na: 1\n---\n```')).toBe(0);
    expect(frontMatterLength('----\na: 1\n---\n')).toBe(0);
    expect(frontMatterLength(' ---\na: 1\n---\n')).toBe(0);
    expect(frontMatterLength('...\na: 1\n...\n')).toBe(0);
    expect(frontMatterLength('')).toBe(0);
  });

  it('does not take a fence with more on its line as a closer', () => {
    expect(found('---\na: 1\n--- x\n----\n---\nbody')).toBe('---\na: 1\n--- x\n----\n---');
  });
});
