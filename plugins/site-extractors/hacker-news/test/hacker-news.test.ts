/** The Hacker News extractor on pages written for it (test/fixtures/): an item with its comment tree, and "No such item". */
import { readFile } from 'node:fs/promises';
import { parser } from '@vmark/sdk/markdown';
import { readPage } from '@vmark/sdk/reader';
import { describe, expect, it } from 'vitest';
import { hackerNewsExtractor } from '../src/hacker-news-extractor.js';

const fixture = (name: string) => readFile(new URL(`fixtures/${name}`, import.meta.url), 'utf8');
const ITEM = 'https://news.ycombinator.com/item?id=4242';

describe('match', () => {
  it.each([
    [ITEM, true],
    ['https://news.ycombinator.com/item?id=abc', false],
    ['https://news.ycombinator.com/item', false],
    ['https://news.ycombinator.com/news', false],
    ['https://news.ycombinator.com/user?id=ada', false],
    ['https://ycombinator.com/item?id=4242', false],
  ])('%s → %s', (url, claimed) => expect(hackerNewsExtractor.match(new URL(url))).toBe(claimed));
});

describe('read', () => {
  it('reads the story and its whole comment tree as nested lists, in page order', async () => {
    const result = await hackerNewsExtractor.read(await fixture('item.html'), new URL(ITEM));
    await expect(result.markdown).toMatchFileSnapshot('golden/item.md');
    expect(result).toMatchObject({ title: 'Show HN: A reader mode that keeps code fences', byline: 'ada' });
    expect(result.markdown).toContain('[example.org](https://example.org/reader-mode)');
    expect(result.markdown).toContain('128 points · by ada · 3 hours ago');
    expect(result.markdown).toMatch(/^- \*\*grace\*\* \(2 hours ago\)$/m);
    expect(result.markdown).toMatch(/^ {2}- \*\*ada\*\* \(2 hours ago\)$/m);
    expect(result.markdown).toMatch(/^ {4}- \*\*linus\*\* \(1 hour ago\)$/m);
    expect(result.markdown).toMatch(/^- \*\*margaret\*\*/m);
    for (const chrome of ['login', 'Guidelines', 'reply', 'hide'])
      expect(result.markdown).not.toContain(chrome);
  });

  it('nests each reply under its parent for a Markdown parser, not merely by indentation', async () => {
    const { markdown } = await hackerNewsExtractor.read(await fixture('item.html'), new URL(ITEM));
    const tree = parser.parse(markdown);
    let deepest = 0;
    tree.iterate({
      enter(node) {
        if (node.name !== 'BulletList') return;
        let depth = 0;
        for (let up = node.node.parent; up; up = up.parent) if (up.name === 'BulletList') depth++;
        deepest = Math.max(deepest, depth);
      },
    });
    expect(deepest).toBe(2);
  });

  it('answers with the generic reader for an item page without the item', async () => {
    const html = await fixture('no-such-item.html');
    const result = await hackerNewsExtractor.read(html, new URL(ITEM));
    expect(result).toEqual(await readPage(html, ITEM));
    expect(result.markdown).toContain('No such item.');
  });
});
