/** The arXiv extractor on pages written for it (test/fixtures/): an abstract page, and an identifier arXiv does not know. */
import { readFile } from 'node:fs/promises';
import { readPage } from '@vmark/sdk/reader';
import { describe, expect, it } from 'vitest';
import { arxivExtractor } from '../src/arxiv-extractor.js';

const fixture = (name: string) => readFile(new URL(`fixtures/${name}`, import.meta.url), 'utf8');
const ABS = 'https://arxiv.org/abs/2603.01234v2';

describe('match', () => {
  it.each([
    [ABS, true],
    ['https://arxiv.org/abs/2603.01234', true],
    ['https://arxiv.org/abs/math/0211159', true],
    ['https://arxiv.org/pdf/2603.01234', false],
    ['https://arxiv.org/list/cs/recent', false],
    ['https://export.arxiv.org/abs/2603.01234', false],
  ])('%s → %s', (url, claimed) => expect(arxivExtractor.match(new URL(url))).toBe(claimed));
});

describe('read', () => {
  it('reads title, authors, dates, the abstract (math kept), subjects and the links to the paper', async () => {
    const result = await arxivExtractor.read(await fixture('abstract.html'), new URL(ABS));
    await expect(result.markdown).toMatchFileSnapshot('golden/abstract.md');
    expect(result).toMatchObject({
      title: 'Reader Modes for Language Agents',
      byline: 'Ada Lovelace, Grace Hopper',
    });
    expect(result.markdown).toContain('$O(n \\log n)$');
    expect(result.markdown).toContain('(https://arxiv.org/pdf/2603.01234v2)');
    for (const chrome of ['Title:', 'Abstract:', 'Cornell', 'Search', 'BibSonomy', 'About'])
      expect(result.markdown).not.toContain(chrome);
  });

  it('answers with the generic reader for an abstract URL that shows no abstract', async () => {
    const html = await fixture('withdrawn.html');
    const result = await arxivExtractor.read(html, new URL(ABS));
    expect(result).toEqual(await readPage(html, ABS));
    expect(result.markdown).toContain('does not match any article');
  });
});
