/**
 * The reader corpora and their score (issue 15), shared by the reader bench (bench/reader.mjs)
 * and the test that keeps the generic reader's mean F1 at or above 0.95 on both
 * (sdk/src/reader/corpus.test.ts). The pages are read where they are, in ../shared/corpora/.
 *
 * - readability: `<case>/source.html` → `expected.html` (Readability's article), fetched as
 *   `http://fakehost/test/page.html`, as Readability's own tests do;
 * - defuddle: `fixtures/<name>.html` → `expected/<name>.md` (defuddle's Markdown, after its
 *   metadata block), fetched from the URL the name spells, as defuddle's own tests derive it.
 *
 * Score: lowercase the text, tokens /[\p{L}\p{N}]+/gu, multiset overlap, F1 = 2PR/(P+R). HTML is
 * scored by its text; Markdown (outputs and the defuddle expectations) after stripping link
 * targets, image URLs, HTML tags and fence info.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { parseHTML } from 'linkedom';

export const CORPORA = new URL('../../shared/corpora/', import.meta.url);

/** The pages of one corpus: `{corpus, name, url, html, expected}` (expected as scorable text). */
export function loadCorpus(corpus) {
  const root = new URL(`${corpus}/`, CORPORA);
  if (corpus === 'readability') {
    return readdirSync(root)
      .filter((name) => existsSync(new URL(`${name}/source.html`, root)))
      .sort()
      .map((name) => ({
        corpus,
        name,
        url: 'http://fakehost/test/page.html',
        html: readFileSync(new URL(`${name}/source.html`, root), 'utf8'),
        expected: htmlText(readFileSync(new URL(`${name}/expected.html`, root), 'utf8')),
      }));
  }
  const fixtures = new URL('fixtures/', root);
  return readdirSync(fixtures)
    .filter((file) => file.endsWith('.html'))
    .sort()
    .map((file) => {
      const name = file.slice(0, -'.html'.length);
      const spelled = name.replace(/^[a-z]+--/, '').replace(/:/g, '/');
      return {
        corpus,
        name,
        url: `https://${spelled}`,
        html: readFileSync(new URL(file, fixtures), 'utf8'),
        expected: markdownText(readFileSync(new URL(`expected/${name}.md`, root), 'utf8')),
      };
    });
}

/** The text of an HTML fragment. */
export function htmlText(html) {
  const { document } = parseHTML(`<!doctype html><html><body>${html}</body></html>`);
  return document.body.textContent ?? '';
}

/** Markdown's text: no metadata block, link targets, image URLs, HTML tags or fence info. */
export function markdownText(markdown) {
  return markdown
    .replace(/^```json\n[\s\S]*?\n```\n/, '')
    .replace(/^(\s*)(`{3,}|~{3,})[^\n`]*$/gm, '$1$2')
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\]\((?:[^()\s]|\([^()]*\))*(?:\s+"[^"]*")?\)/g, ']')
    .replace(/^\s*\[[^\]]+\]:\s*\S+.*$/gm, '')
    .replace(/<[^>\n]+>/g, ' ');
}

function tokens(text) {
  const counts = new Map();
  for (const [token] of text.toLowerCase().matchAll(/[\p{L}\p{N}]+/gu))
    counts.set(token, (counts.get(token) ?? 0) + 1);
  return counts;
}

/** Token F1 of `output` against `expected` (both text). */
export function f1(output, expected) {
  const got = tokens(output);
  const want = tokens(expected);
  let overlap = 0;
  let gotCount = 0;
  let wantCount = 0;
  for (const [token, n] of got) {
    gotCount += n;
    overlap += Math.min(n, want.get(token) ?? 0);
  }
  for (const n of want.values()) wantCount += n;
  if (gotCount === 0 && wantCount === 0) return 1;
  if (overlap === 0) return 0;
  const precision = overlap / gotCount;
  const recall = overlap / wantCount;
  return (2 * precision * recall) / (precision + recall);
}
