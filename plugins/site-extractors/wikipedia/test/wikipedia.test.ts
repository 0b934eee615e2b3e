/**
 * The Wikipedia extractor on pages written for it (test/fixtures/): which pages it claims, and
 * the Markdown of an article (test/golden/) without the wiki's frame.
 */
import { readFile } from 'node:fs/promises';
import { readPage } from '@vmark/sdk/reader';
import { describe, expect, it } from 'vitest';
import { wikipediaExtractor } from '../src/wikipedia-extractor.js';

const fixture = (name: string) => readFile(new URL(`fixtures/${name}`, import.meta.url), 'utf8');
const ARTICLE = 'https://en.wikipedia.org/wiki/Lighthouse_of_Alexandria';

describe('match', () => {
  it.each([
    [ARTICLE, true],
    ['https://de.wikipedia.org/wiki/Leuchtturm_von_Alexandria', true],
    ['https://en.m.wikipedia.org/wiki/Pharos', true],
    ['https://wikipedia.org/wiki/Pharos', true],
    ['https://en.wikipedia.org/wiki/Caf%C3%A9', true],
    ['https://en.wikipedia.org/wiki/Special:RecentChanges', false],
    ['https://en.wikipedia.org/wiki/Talk:Pharos', false],
    ['https://en.wikipedia.org/wiki/File:Pharos.png', false],
    ['https://en.wikipedia.org/wiki/Special%3ARandom', false],
    ['https://en.wikipedia.org/wiki/', false],
    ['https://en.wikipedia.org/w/index.php?title=Pharos', false],
    ['https://wikipedia.org.example.com/wiki/Pharos', false],
    ['https://notwikipedia.org/wiki/Pharos', false],
  ])('%s → %s', (url, claimed) => {
    expect(wikipediaExtractor.match(new URL(url))).toBe(claimed);
  });
});

describe('read', () => {
  it('reads an article without infobox, hatnote, edit links, table of contents, references or navbox', async () => {
    const result = await wikipediaExtractor.read(await fixture('article.html'), new URL(ARTICLE));
    await expect(result.markdown).toMatchFileSnapshot('golden/article.md');
    expect(result.title).toBe('Lighthouse of Alexandria');
    for (const frame of [
      'Jump to content',
      'For the modern lighthouse',
      'Location',
      'additional citations',
      '[edit]',
      '[1]',
      'Contents',
      'Clayton',
      'Colossus',
      'last edited',
    ])
      expect(result.markdown).not.toContain(frame);
    expect(result.markdown).toContain('[Ptolemaic Kingdom](https://en.wikipedia.org/wiki/Ptolemaic_Kingdom)');
    expect(result.markdown).toMatch(/^\| Source \| Height \|$/m);
    expect(result.markdown).toMatch(/^- a middle octagonal section,$/m);
  });

  it('leaves a page of another namespace to the generic reader, which keeps what the extractor would strip', async () => {
    const url = 'https://en.wikipedia.org/wiki/Special:RecentChanges';
    expect(wikipediaExtractor.match(new URL(url))).toBe(false);
    const generic = await readPage(await fixture('special-page.html'), url);
    expect(generic.markdown).toContain('Track the most recent changes');
  });
});
