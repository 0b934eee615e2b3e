// @ts-check
/**
 * Reader mode for docs.example.com: a documentation page (`/docs/…`) read from its article,
 * with the page's breadcrumb as the byline. A page without the article goes to the generic
 * reader. Change the selectors, `match` and the manifest's `origins` for your site.
 */
import { escapeMarkdownText, parseHtml, readDocument, textContent, toMarkdown } from '@vmark/sdk/reader';

/** The page's parts that are not the article. */
const CHROME = 'nav, .edit-this-page, .feedback, .toc';

/** @type {import('@vmark/sdk/reader').SiteExtractor} */
export const exampleDocsExtractor = {
  id: 'example-docs',
  match: (url) => url.pathname.startsWith('/docs/'),
  read(html, url) {
    const document = parseHtml(html);
    const article = document.querySelector('main article');
    if (article === null) return readDocument(document, url.href);
    for (const element of Array.from(article.querySelectorAll(CHROME))) element.remove();
    const heading = article.querySelector('h1');
    const title = textContent(heading) || textContent(document.querySelector('title'));
    heading?.remove();
    const trail = Array.from(document.querySelectorAll('.breadcrumbs a')).map((a) => textContent(a));
    return {
      title,
      byline: trail.length > 0 ? trail.join(' › ') : null,
      url: url.href,
      markdown: `# ${escapeMarkdownText(title)}\n\n${toMarkdown(article.innerHTML, url.href)}`,
      textLength: textContent(article).length,
    };
  },
};
