/**
 * What a page holds that Readability's cleaning loses and defuddle's standardization keeps:
 * math (MathJax, KaTeX, MathML, TeX scripts), code blocks (whose line-number gutters defuddle
 * drops), footnotes, callouts, and sites defuddle has an extractor of its own for (comment
 * threads). Read before Readability runs, since it changes the document.
 */
import { defuddleKnowsSite } from './defuddle-parts.js';

const STRUCTURES: Readonly<Record<string, string>> = {
  math: 'math, .katex, .MathJax, mjx-container, script[type^="math/"], [data-math], .math',
  code: 'pre, code',
  footnotes: '.footnotes, .footnote, [id^="fn"], [class*="footnote"], .reference, sup a[href^="#"]',
  callouts: '.callout, [data-callout], .admonition, .alert',
};

export interface PageFeatures {
  /** The structures found, by name (`math`, `code`, `footnotes`, `callouts`, `site`). */
  readonly found: readonly string[];
}

export function pageFeatures(document: Document, url: string): PageFeatures {
  const found = Object.entries(STRUCTURES)
    .filter(([, selector]) => document.querySelector(selector) !== null)
    .map(([name]) => name);
  if (defuddleKnowsSite(document, url)) found.push('site');
  return { found };
}
