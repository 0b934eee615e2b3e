/**
 * Wikipedia (vmark-notes §5.2, the original's built-in site plugin): an article page — host
 * `wikipedia.org` or a language's `*.wikipedia.org`, path `/wiki/<title>` whose title names no
 * namespace (`Special:`, `Talk:`, `File:` pages go to the generic reader) — read without the
 * wiki's frame, which the selectors below name, by the generic reader.
 */
import { parseHtml, readDocument, type SiteExtractor } from '@vmark/sdk/reader';

/** The wiki's frame around an article. */
export const WIKI_FRAME = [
  '.infobox',
  '.navbox',
  '.sidebar',
  '.hatnote',
  '.mw-editsection',
  '.mw-jump-link',
  '#toc',
  '.toc',
  'sup.reference',
  '.reflist',
  '.mw-references-wrap',
  'table.metadata',
  '.ambox',
  '#mw-navigation',
  '#footer',
].join(', ');

export const wikipediaExtractor: SiteExtractor = {
  id: 'wikipedia',
  match(url) {
    const host = url.hostname;
    if (host !== 'wikipedia.org' && !host.endsWith('.wikipedia.org')) return false;
    const article = /^\/wiki\/(.+)$/.exec(url.pathname);
    if (article === null) return false;
    const title = decodeURIComponent(article[1]!);
    return title.trim() !== '' && !title.includes(':');
  },
  read(html, url) {
    const document = parseHtml(html);
    for (const element of Array.from(document.querySelectorAll(WIKI_FRAME))) element.remove();
    return readDocument(document, url.href);
  },
};
