/// <reference lib="dom" preserve="true" />
/**
 * What reader mode answers for a page (vmark-notes §5.2): its title and byline, the article as
 * Markdown, and how much text it holds. Every field comes from the page and is untrusted.
 */
export interface ReaderResult {
  readonly title: string;
  readonly byline: string | null;
  /** The page's URL as the reader was given it; the browser redacts it before a client sees it. */
  readonly url: string;
  readonly markdown: string;
  /** The whitespace-collapsed length of the article's text. */
  readonly textLength: number;
}
