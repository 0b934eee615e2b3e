/**
 * Hacker News: an item page (`/item?id=N`) — the story (its link, points, author, text) or the
 * comment it shows — and the whole comment tree under it, as nested lists in the page's order
 * (a comment's depth is the width of its indent, 40 pixels a level). Other pages (the front
 * page, a user's) and an item page without the item go to the generic reader.
 */
import {
  escapeMarkdownText,
  parseHtml,
  readDocument,
  type SiteExtractor,
  textContent,
  toMarkdown,
} from '@vmark/sdk/reader';

const INDENT_PX = 40;

export const hackerNewsExtractor: SiteExtractor = {
  id: 'hacker-news',
  match: (url) =>
    url.hostname === 'news.ycombinator.com' &&
    url.pathname === '/item' &&
    /^\d+$/.test(url.searchParams.get('id') ?? ''),
  read(html, url) {
    const document = parseHtml(html);
    const item = document.querySelector('.fatitem');
    if (item === null) return readDocument(document, url.href);

    const link = item.querySelector('.titleline > a');
    const title = textContent(link) || textContent(item.querySelector('.commtext')).slice(0, 80);
    const author = textContent(item.querySelector('.hnuser')) || null;
    const facts = [
      textContent(item.querySelector('.score')),
      author ? `by ${author}` : '',
      textContent(item.querySelector('.age')),
    ]
      .filter(Boolean)
      .map(escapeMarkdownText)
      .join(' · ');
    const head = [`# ${escapeMarkdownText(title)}`];
    const href = link?.getAttribute('href');
    if (href) {
      const target = new URL(href, url);
      head.push(
        `[${escapeMarkdownText(target.hostname)}](${target.href.replace(/[()]/g, encodeURIComponent)})`,
      );
    }
    if (facts) head.push(facts);
    const text = item.querySelector('.toptext, .commtext');
    if (text && textContent(text)) head.push(toMarkdown(text.innerHTML, url.href));

    const comments = Array.from(document.querySelectorAll('tr.athing.comtr'));
    const lines: string[] = [];
    let textLength = textContent(text).length;
    for (const comment of comments) {
      const depth = depthOf(comment);
      const who = textContent(comment.querySelector('.hnuser')) || '[deleted]';
      const age = textContent(comment.querySelector('.age'));
      const body = comment.querySelector('.commtext');
      textLength += textContent(body).length;
      const markdown = body ? toMarkdown(body.innerHTML, url.href) : '*(deleted)*';
      const indent = '  '.repeat(depth);
      lines.push(`${indent}- **${escapeMarkdownText(who)}**${age ? ` (${escapeMarkdownText(age)})` : ''}`);
      for (const line of markdown.split('\n')) lines.push(line === '' ? '' : `${indent}  ${line}`);
    }
    const parts = [head.join('\n\n')];
    if (lines.length > 0) parts.push(`## Comments (${comments.length})`, lines.join('\n'));
    return { title, byline: author, url: url.href, markdown: parts.join('\n\n'), textLength };
  },
};

/** A comment's level in the tree: its indent cell's width (`indent` attribute on newer pages). */
function depthOf(comment: Element): number {
  const cell = comment.querySelector('td.ind');
  const indent = Number(cell?.getAttribute('indent'));
  if (Number.isInteger(indent) && indent >= 0) return indent;
  const width = Number(cell?.querySelector('img')?.getAttribute('width') ?? 0);
  return Number.isFinite(width) ? Math.max(0, Math.round(width / INDENT_PX)) : 0;
}
