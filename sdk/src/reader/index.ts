/**
 * Reader mode (`@vmark/sdk/reader`): the page → Markdown machinery the browser plugin's `extract`
 * and every site extractor share, so that all of them parse, choose and serialize alike, and a
 * site extractor depends on the SDK alone (ADR 32). Its own subpath: a plugin that never reads
 * pages never loads it (nor linkedom, Readability and defuddle).
 */
export {
  escapeMarkdownText,
  readDocument,
  readPage,
  SHORT_TEXT,
  textContent,
  toMarkdown,
} from './generic-reader.js';
export { MAX_DEPTH, parseHtml } from './parse-html.js';
export type { ReaderResult } from './reader-result.js';
export { safeMarkdown } from './safe-markdown.js';
export type { SiteExtractor, SiteExtractorDeclaration, SiteCapability } from './site-extractor.js';
