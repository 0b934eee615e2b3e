/** The Stack Overflow extractor on pages written for it (test/fixtures/): a question with answers, and a removed question. */
import { readFile } from 'node:fs/promises';
import { readPage } from '@vmark/sdk/reader';
import { describe, expect, it } from 'vitest';
import { stackOverflowExtractor } from '../src/stack-overflow-extractor.js';

const fixture = (name: string) => readFile(new URL(`fixtures/${name}`, import.meta.url), 'utf8');
const QUESTION = 'https://stackoverflow.com/questions/7777/how-do-i-keep-the-language-of-a-code-block';

describe('match', () => {
  it.each([
    [QUESTION, true],
    ['https://stackoverflow.com/questions/7777', true],
    ['https://stackoverflow.com/questions/tagged/javascript', false],
    ['https://stackoverflow.com/questions', false],
    ['https://stackoverflow.com/users/101/ada', false],
    ['https://meta.stackoverflow.com/questions/7777/x', false],
  ])('%s → %s', (url, claimed) => expect(stackOverflowExtractor.match(new URL(url))).toBe(claimed));
});

describe('read', () => {
  it('reads the question, then the accepted answer, then the others by score, each with its author', async () => {
    const result = await stackOverflowExtractor.read(await fixture('question.html'), new URL(QUESTION));
    await expect(result.markdown).toMatchFileSnapshot('golden/question.md');
    expect(result).toMatchObject({
      title: 'How do I keep the language of a code block when converting HTML to Markdown?',
      byline: 'ada',
    });
    const headings = result.markdown.match(/^## .*$/gm);
    expect(headings).toEqual([
      '## Accepted answer (score 5) by grace',
      '## Answer (score 12) by barbara',
      '## Answer (score -2) by anon',
    ]);
    expect(result.markdown).toContain('```html\n<pre class="brush: js">let x = 1;</pre>\n```');
    expect(result.markdown).toContain('Score 17 · asked by ada · tags: javascript, markdown');
    for (const chrome of ['Log in', 'The Overflow Blog', 'Related', 'Stack Exchange Inc'])
      expect(result.markdown).not.toContain(chrome);
  });

  it('answers with the generic reader for a question URL that shows no question', async () => {
    const html = await fixture('deleted.html');
    const result = await stackOverflowExtractor.read(html, new URL(QUESTION));
    expect(result).toEqual(await readPage(html, QUESTION));
    expect(result.markdown).toContain('removed from Stack Overflow');
  });
});
