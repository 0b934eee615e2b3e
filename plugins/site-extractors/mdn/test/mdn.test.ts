/** The MDN extractor on pages written for it (test/fixtures/): a reference page, and a search page it leaves alone. */
import { readFile } from 'node:fs/promises';
import { readPage } from '@vmark/sdk/reader';
import { describe, expect, it } from 'vitest';
import { mdnExtractor } from '../src/mdn-extractor.js';

const fixture = (name: string) => readFile(new URL(`fixtures/${name}`, import.meta.url), 'utf8');
const PAGE = 'https://developer.mozilla.org/en-US/docs/Web/JavaScript/Reference/Global_Objects/Array/at';

describe('match', () => {
  it.each([
    [PAGE, true],
    ['https://developer.mozilla.org/ja/docs/Web/HTML', true],
    ['https://developer.mozilla.org/en-US/search?q=array', false],
    ['https://developer.mozilla.org/en-US/', false],
    ['https://developer.mozilla.org/en-US/docs/', false],
    ['https://mozilla.org/en-US/docs/Web', false],
  ])('%s → %s', (url, claimed) => expect(mdnExtractor.match(new URL(url))).toBe(claimed));
});

describe('read', () => {
  it('reads the article alone, its examples fenced as js and its links absolute', async () => {
    const result = await mdnExtractor.read(await fixture('reference.html'), new URL(PAGE));
    await expect(result.markdown).toMatchFileSnapshot('golden/reference.md');
    expect(result.title).toBe('Array.prototype.at()');
    expect(result.markdown.match(/^```js$/gm)).toHaveLength(2);
    expect(result.markdown).toContain('if (array.length < 10) console.log("short");');
    expect(result.markdown).toContain(
      '(https://developer.mozilla.org/en-US/docs/Web/JavaScript/Reference/Global_Objects/Array)',
    );
    for (const chrome of [
      'Français',
      'concat',
      'In this article',
      'Copy',
      'last modified',
      'Mozilla Foundation',
      'Theme',
    ])
      expect(result.markdown).not.toContain(chrome);
  });

  it('answers with the generic reader for a docs URL that shows no article', async () => {
    const html = await fixture('search.html');
    const result = await mdnExtractor.read(html, new URL(PAGE));
    expect(result).toEqual(await readPage(html, PAGE));
    expect(result.markdown).toContain('Found 184 documents');
  });
});
