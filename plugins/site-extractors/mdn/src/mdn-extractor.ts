/**
 * MDN Web Docs: a documentation page (`/<locale>/docs/…`) read from its article alone — no
 * sidebar, table of contents, language menu or "copy" buttons; its examples' `brush: <lang>`
 * classes give their fences a language (the serializer reads them). A page without the
 * article (a search page, a changed layout) goes to the generic reader.
 */
import {
  escapeMarkdownText,
  parseHtml,
  readDocument,
  type SiteExtractor,
  textContent,
  toMarkdown,
} from '@vmark/sdk/reader';

const CHROME = [
  '.sidebar',
  '.example-header',
  '.document-toc-container',
  '.language-menu',
  '.copy-icon',
  'button',
  '.article-footer',
  '.metadata',
  'aside',
].join(', ');

export const mdnExtractor: SiteExtractor = {
  id: 'mdn',
  match: (url) => url.hostname === 'developer.mozilla.org' && /^\/[A-Za-z-]+\/docs\/./.test(url.pathname),
  read(html, url) {
    const document = parseHtml(html);
    const article = document.querySelector('article.main-page-content, main#content article, main article');
    if (article === null) return readDocument(document, url.href);
    for (const element of Array.from(article.querySelectorAll(CHROME))) element.remove();
    const heading = article.querySelector('h1');
    const title =
      textContent(heading) || textContent(document.querySelector('title')).replace(/\s+\|\s+MDN$/, '');
    heading?.remove();
    return {
      title,
      byline: null,
      url: url.href,
      markdown: `# ${escapeMarkdownText(title)}\n\n${toMarkdown(article.innerHTML, url.href)}`,
      textLength: textContent(article).length,
    };
  },
};
