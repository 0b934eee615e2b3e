/**
 * arXiv: an abstract page (`/abs/<id>`, versions included): title, authors, the abstract, the
 * subjects, the submission dates and the links to the paper. Listing and search pages, and an
 * abstract page without its parts (withdrawn, a changed layout), go to the generic reader.
 */
import {
  escapeMarkdownText,
  parseHtml,
  readDocument,
  type SiteExtractor,
  textContent,
} from '@vmark/sdk/reader';

/** `$…$` and `$$…$$`: TeX, which arXiv's pages leave for MathJax to render. */
const TEX = /(\$\$[^$]+\$\$|\$[^$\n]+\$)/;

/** Abstract text as Markdown: the prose escaped, its TeX kept as written (the reader's math form). */
function withTex(text: string): string {
  return text
    .split(TEX)
    .map((part, index) =>
      index % 2 === 1
        ? part
        : part.replace(
            /^(\s*)([\s\S]*?)(\s*)$/,
            (_, before: string, prose: string, after: string) =>
              `${before ? ' ' : ''}${escapeMarkdownText(prose)}${after ? ' ' : ''}`,
          ),
    )
    .join('');
}

/** arXiv's labels inside the elements they label ("Title:", "Abstract:"). */
const DESCRIPTOR = '.descriptor';

export const arxivExtractor: SiteExtractor = {
  id: 'arxiv',
  match: (url) => url.hostname === 'arxiv.org' && /^\/abs\/[^/]+(?:\/[^/]+)?$/.test(url.pathname),
  read(html, url) {
    const document = parseHtml(html);
    const titleElement = document.querySelector('h1.title');
    const abstract = document.querySelector('blockquote.abstract');
    if (titleElement === null || abstract === null) return readDocument(document, url.href);
    for (const label of Array.from(document.querySelectorAll(DESCRIPTOR))) label.remove();

    const title = textContent(titleElement);
    const authors = Array.from(document.querySelectorAll('.authors a'))
      .map((a) => textContent(a))
      .filter(Boolean);
    const subjects = textContent(document.querySelector('td.subjects, .tablecell.subjects'));
    const dateline = textContent(document.querySelector('.dateline'));
    const id = url.pathname.slice('/abs/'.length);
    const parts = [`# ${escapeMarkdownText(title)}`];
    if (authors.length > 0) parts.push(`**Authors:** ${authors.map(escapeMarkdownText).join(', ')}`);
    if (dateline) parts.push(escapeMarkdownText(dateline));
    parts.push('## Abstract', withTex(textContent(abstract)));
    if (subjects) parts.push(`**Subjects:** ${escapeMarkdownText(subjects)}`);
    const links = Array.from(document.querySelectorAll('.full-text a[href]'))
      .map((a) => ({ label: textContent(a), href: new URL(a.getAttribute('href')!, url).href }))
      .filter((link) => link.label && /^https?:/.test(link.href));
    if (links.length > 0)
      parts.push(
        '## Full text',
        links
          .map((l) => `- [${escapeMarkdownText(l.label)}](${l.href.replace(/[()]/g, encodeURIComponent)})`)
          .join('\n'),
      );
    parts.push(escapeMarkdownText(`arXiv: ${id}`));
    return {
      title,
      byline: authors.length > 0 ? authors.join(', ') : null,
      url: url.href,
      markdown: parts.join('\n\n'),
      textLength: textContent(abstract).length,
    };
  },
};
