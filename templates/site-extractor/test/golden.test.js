// Golden test: the extractor's Markdown for a page saved from the site (test/fixtures/) must
// equal the reviewed answer in test/golden/. After a deliberate change, write the new answer
// with `UPDATE_GOLDEN=1 npm test`, read it, and commit it.
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { test } from 'node:test';
import { readPage } from '@vmark/sdk/reader';
import { exampleDocsExtractor } from '../src/example-docs-extractor.js';

const fixture = (name) => readFile(new URL(`fixtures/${name}`, import.meta.url), 'utf8');
const PAGE = new URL('https://docs.example.com/docs/cli/install');

test('claims documentation pages only', () => {
  assert.equal(exampleDocsExtractor.match(PAGE), true);
  assert.equal(exampleDocsExtractor.match(new URL('https://docs.example.com/search?q=x')), false);
});

test('reads a documentation page as its article', async () => {
  const result = await exampleDocsExtractor.read(await fixture('page.html'), PAGE);
  const golden = new URL('golden/page.md', import.meta.url);
  if (process.env.UPDATE_GOLDEN === '1') await writeFile(golden, result.markdown);
  assert.equal(result.markdown, await readFile(golden, 'utf8'));
  assert.equal(result.title, 'Install the CLI');
  assert.equal(result.byline, 'Docs › CLI');
});

test('leaves a page without the article to the generic reader', async () => {
  const html = await fixture('not-docs.html');
  assert.deepEqual(await exampleDocsExtractor.read(html, PAGE), await readPage(html, PAGE.href));
});
