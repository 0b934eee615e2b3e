/**
 * The generic reader: reader mode for any page, combined from two peers as the corpora
 * measured (ADR 32). @mozilla/readability chooses the article best on articles (news, blogs);
 * defuddle keeps what Readability's cleaning loses — math, code without line-number gutters,
 * footnotes, callouts, comment threads of sites it knows — but chooses worse on articles and
 * takes about three times as long. So Readability always runs, defuddle only on pages that hold
 * such structures, and defuddle's answer is taken where it ran. Both answers go through one
 * Markdown serializer (defuddle's) and `safeMarkdown`. An empty or very short answer falls back
 * to a fuller one: the other reader's, else the page's whole body.
 */
import { createRequire } from 'node:module';
import type * as Readability from '@mozilla/readability';
import type * as Defuddle from 'defuddle/node';
import { defuddleMarkdown } from './defuddle-parts.js';
import { markdownReady } from './markdown-ready.js';
import { neutralize } from './neutralize.js';
import { pageFeatures } from './page-features.js';
import { parseHtml } from './parse-html.js';
import type { ReaderResult } from './reader-result.js';
import { safeMarkdown } from './safe-markdown.js';

// Readability and defuddle load with the first page read, not with the reader.
type ReadabilityModule = typeof Readability;
type DefuddleModule = typeof Defuddle;
const require = createRequire(import.meta.url);
let readabilityModule: ReadabilityModule | undefined;
let defuddleModule: Promise<DefuddleModule> | undefined;
const readabilityClass = () =>
  (readabilityModule ??= require('@mozilla/readability') as ReadabilityModule).Readability;
const defuddleEntry = async () => (await (defuddleModule ??= import('defuddle/node'))).Defuddle;

/** Below this many characters of text an answer is "very short" and a fuller one is tried. */
export const SHORT_TEXT = 50;

/** Where a page marks its author, in the original's order (vmark-notes §5.2). */
const BYLINE = ['[rel=author]', '[itemprop=author]', '.byline', '.author'];

function markedAuthor(document: Document): string | null {
  for (const selector of BYLINE) {
    const text = clean(document.querySelector(selector)?.textContent);
    if (text !== null) return text;
  }
  return null;
}

/** Elements that are never article text, dropped before the whole body is read as the last resort. */
const NEVER_TEXT = 'script, style, noscript, template, svg, iframe, form, nav, aside, footer, header';

interface Candidate {
  readonly html: string;
  readonly textLength: number;
}

/** Reader mode for `html`, fetched from `url` (which resolves its relative links). Never throws on a page. */
export async function readPage(html: string, url: string): Promise<ReaderResult> {
  return readDocument(parseHtml(html), url);
}

/**
 * Reader mode for a parsed document, for a site extractor that edits the page first (removes
 * its chrome) and then reads the rest like any page. The document is changed.
 */
export async function readDocument(document: Document, url: string): Promise<ReaderResult> {
  neutralize(document);
  ensureBase(document, url);
  const features = pageFeatures(document, url);
  const pageTitle = document.title;
  const heading = textContent(document.querySelector('h1'));

  // Defuddle reads a page with these structures (on a copy: Readability changes what it reads);
  // when it found an article, that is the answer, and Readability is not run for nothing.
  let defuddled =
    features.found.length > 0 ? await defuddle(document.cloneNode(true) as Document, url) : null;
  const article =
    defuddled !== null && defuddled.candidate.textLength >= SHORT_TEXT ? null : readability(document);
  let chosen: Candidate | null = defuddled?.candidate ?? article?.candidate ?? null;

  if (chosen === null || chosen.textLength < SHORT_TEXT) {
    defuddled ??= await defuddle(parseHtmlFor(document, url), url);
    chosen = longest([chosen, article?.candidate ?? null, defuddled?.candidate ?? null]);
  }
  if (chosen === null || chosen.textLength < SHORT_TEXT) chosen = longest([chosen, wholeBody(document, url)]);

  const title = withoutSiteName(
    clean(article?.title) ?? clean(defuddled?.title) ?? clean(pageTitle) ?? '',
    heading,
  );
  const byline =
    clean(article?.byline) ??
    clean(defuddled?.author) ??
    // Readability, which looks for one, did not run: the page's author meta, else the places a page
    // marks its author (vmark-notes §5.2).
    (article === null
      ? (clean(document.querySelector('meta[name="author" i]')?.getAttribute('content')) ??
        markedAuthor(document))
      : null);
  return {
    title,
    byline,
    url,
    markdown: chosen === null ? '' : toMarkdown(chosen.html, url),
    textLength: chosen?.textLength ?? 0,
  };
}

/** HTML → the reader's Markdown: defuddle's serializer, else the text alone, then made safe. */
export function toMarkdown(html: string, url: string): string {
  const ready = markdownReady(html, url);
  const markdown = defuddleMarkdown(ready, url) ?? escapeMarkdownText(textOf(ready));
  return safeMarkdown(markdown);
}

function readability(document: Document) {
  try {
    const parsed = new (readabilityClass())(document, { keepClasses: true }).parse();
    if (!parsed?.content) return null;
    return {
      title: parsed.title,
      byline: parsed.byline,
      candidate: { html: parsed.content, textLength: collapsedLength(parsed.textContent ?? '') },
    };
  } catch {
    return null;
  }
}

async function defuddle(document: Document, url: string) {
  try {
    const read = await defuddleEntry();
    const result = await read(document, url, {
      // Never fetch: the page was loaded through the browser's guard, and the host must not reach out.
      useAsync: false,
      fetch: () => Promise.reject(new Error('reader mode does not fetch')),
    });
    if (!result.content) return null;
    return {
      title: result.title,
      author: result.author,
      candidate: { html: result.content, textLength: collapsedLength(textOf(result.content)) },
    };
  } catch {
    return null;
  }
}

/** A fresh parse of what is left of `document` (Readability consumed the one it read). */
function parseHtmlFor(document: Document, url: string): Document {
  const fresh = parseHtml(document.documentElement?.outerHTML ?? '');
  ensureBase(fresh, url);
  return fresh;
}

function wholeBody(document: Document, url: string): Candidate | null {
  const body = parseHtmlFor(document, url).body;
  if (!body) return null;
  for (const element of Array.from(body.querySelectorAll(NEVER_TEXT))) element.remove();
  return { html: body.innerHTML, textLength: collapsedLength(body.textContent ?? '') };
}

/** Relative links and images resolve against the page's URL, as in the browser. */
function ensureBase(document: Document, url: string): void {
  if (document.querySelector('base[href]') !== null || !document.head) return;
  const base = document.createElement('base');
  base.setAttribute('href', url);
  document.head.prepend(base);
}

function longest(candidates: ReadonlyArray<Candidate | null>): Candidate | null {
  let best: Candidate | null = null;
  for (const candidate of candidates)
    if (candidate && (!best || candidate.textLength > best.textLength)) best = candidate;
  return best;
}

function textOf(html: string): string {
  return parseHtml(`<!doctype html><html><body>${html}</body></html>`).body?.textContent ?? '';
}

function collapsedLength(text: string): number {
  return text.replace(/\s+/g, ' ').trim().length;
}

/** "Article - Site" → "Article" when the page's first heading says just "Article". */
function withoutSiteName(title: string, heading: string): string {
  if (heading === '' || heading === title || !title.startsWith(heading)) return title;
  return /^\s*[|—–\-:·•]\s/.test(title.slice(heading.length)) ? heading : title;
}

function clean(text: string | null | undefined): string | null {
  const collapsed = text?.replace(/\s+/g, ' ').trim();
  return collapsed ? collapsed : null;
}

/** Plain text (a title, a name) as Markdown that means the same text, on one line. */
export function escapeMarkdownText(text: string): string {
  return text
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[\\`*_[\]<>|~$]/g, '\\$&')
    .replace(/^([#>+=-])/, '\\$1')
    .replace(/^(\d+)([.)])/, '$1\\$2');
}

/** An element's text, its whitespace collapsed; '' for none. */
export function textContent(node: Node | null | undefined): string {
  return (node?.textContent ?? '').replace(/\s+/g, ' ').trim();
}
