/**
 * The generic reader on the two real corpora (../shared/corpora/, read by path): its mean token
 * F1 stays at or above 0.95 on both (bench/reader.mjs measures it against the peers), and what
 * it writes parses back with the project's Markdown parser: every fence closed, no page markup
 * left live as HTML.
 */
import { GFM, parser } from '@lezer/markdown';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  type CorpusName,
  type CorpusPage,
  f1,
  loadCorpus,
  markdownText,
} from '../../../bench/reader-corpus.mjs';
import { readPage } from './generic-reader.js';

const GOAL = 0.95;
const markdown = parser.configure(GFM);

describe.each<CorpusName>(['readability', 'defuddle'])('the %s corpus', (corpus) => {
  const pages: CorpusPage[] = loadCorpus(corpus);
  const outputs = new Map<string, string>();

  beforeAll(async () => {
    for (const page of pages) outputs.set(page.name, (await readPage(page.html, page.url)).markdown);
  }, 300_000);

  it(`is read with a mean F1 of at least ${GOAL}`, () => {
    expect(pages.length).toBeGreaterThan(40);
    const scores = pages.map((page) => f1(markdownText(outputs.get(page.name)!), page.expected));
    const mean = scores.reduce((a, b) => a + b, 0) / scores.length;
    expect(mean).toBeGreaterThanOrEqual(GOAL);
  });

  it('writes Markdown that parses back as what it meant, with no live page markup', () => {
    for (const page of pages) {
      const text = outputs.get(page.name)!;
      const tree = markdown.parse(text);
      const live: string[] = [];
      const unclosed: string[] = [];
      tree.iterate({
        enter(node) {
          if (node.name === 'HTMLBlock' || node.name === 'HTMLTag' || node.name === 'Comment')
            live.push(text.slice(node.from, Math.min(node.to, node.from + 60)));
          // A fence that is not closed swallows the rest of the document.
          if (node.name === 'FencedCode' && node.node.getChildren('CodeMark').length !== 2)
            unclosed.push(text.slice(node.from, node.from + 60));
        },
      });
      expect(live, page.name).toEqual([]);
      expect(unclosed, page.name).toEqual([]);
    }
  });
});
