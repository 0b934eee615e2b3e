/**
 * HTML made ready for the Markdown serializer, whoever chose it (a reader or a site extractor):
 * every link and image URL absolute (an image given by `srcset` alone too), a list item opening
 * with a checkbox a task, and every code block a `<pre><code>` that names its
 * language — taken from the classes highlighters leave (`language-x`, `lang-x`,
 * `highlight-source-x`, Sphinx's `highlight-x`, MDN's `brush: x`) — so that it becomes a fence that keeps it, without
 * the highlighter's line numbers (`code-lines.ts`); a heading's anchor link to itself is only
 * its text; a table's merged cells (colspan, rowspan) are spread over the cells they cover, so
 * that it is written as a Markdown table rather than kept as HTML; a list right after another
 * list stays a list of its own (the serializer puts no blank line between them, and in
 * CommonMark `3. x` straight after a list item is that item's text).
 */
import { withoutLineNumbers } from './code-lines.js';
import { parseHtml } from './parse-html.js';

const LANGUAGE_CLASS =
  /(?:^|\s)(?:language|lang|highlight-source|highlight)-([A-Za-z0-9_+#-]+)|brush:\s*([A-Za-z0-9_+#-]+)/;

/** What Sphinx's `highlight-x` says when it names no language. */
const NO_LANGUAGE = new Set(['default', 'none']);

export function markdownReady(html: string, url: string): string {
  const document = parseHtml(`<!doctype html><html><body>${html}</body></html>`);
  const body = document.body;
  if (!body) return html;
  for (const image of Array.from(body.querySelectorAll('img[srcset]:not([src])'))) srcFromSrcset(image);
  for (const [selector, attribute] of [
    ['a[href]', 'href'],
    ['img[src]', 'src'],
  ] as const) {
    for (const element of Array.from(body.querySelectorAll(selector))) {
      const absolute = absoluteUrl(element.getAttribute(attribute)!, url);
      if (absolute === null) element.removeAttribute(attribute);
      else element.setAttribute(attribute, absolute);
    }
  }
  for (const item of Array.from(body.querySelectorAll('li'))) taskItem(item);
  withoutLineNumbers(document, body);
  for (const pre of Array.from(body.querySelectorAll('pre'))) fenceable(document, pre);
  for (const list of Array.from(body.querySelectorAll('ul, ol'))) apartFromListBefore(document, list);
  for (const table of Array.from(body.querySelectorAll('table'))) {
    if (table.querySelector('table') === null) expandSpans(document, table);
  }
  // A heading's link to itself (`<h2><a href="#syntax">Syntax</a></h2>`) is an anchor, not a link.
  for (const link of Array.from(
    body.querySelectorAll('h1 > a[href^="#"], h2 > a[href^="#"], h3 > a[href^="#"], h4 > a[href^="#"]'),
  ))
    link.replaceWith(...Array.from(link.childNodes));
  return body.innerHTML;
}

/**
 * A list item that opens with a checkbox is a GFM task (`- [x] done`): marked as GitHub marks
 * one, the way the serializer knows, its state an attribute value the serializer can read
 * (it takes `checked=""` for unchecked).
 */
function taskItem(item: Element): void {
  const box = item.firstElementChild;
  if (box?.tagName !== 'INPUT' || box.getAttribute('type')?.toLowerCase() !== 'checkbox') return;
  if ((item.firstChild?.textContent ?? '').trim() !== '' && item.firstChild !== box) return;
  item.classList.add('task-list-item');
  if (box.hasAttribute('checked')) box.setAttribute('checked', 'checked');
}

/** An image given only by `srcset` is written with its largest candidate (the last, by convention). */
function srcFromSrcset(image: Element): void {
  const candidates = (image.getAttribute('srcset') ?? '')
    .split(',')
    .map((candidate) => candidate.trim().split(/\s+/)[0] ?? '')
    .filter((url) => url !== '' && !url.startsWith('data:'));
  const largest = candidates.at(-1);
  if (largest !== undefined) image.setAttribute('src', largest);
}

/** Wraps a list that directly follows another in a block of its own, so that a blank line parts them. */
function apartFromListBefore(document: Document, list: Element): void {
  const before = list.previousElementSibling;
  if (before === null || (before.tagName !== 'UL' && before.tagName !== 'OL')) return;
  const block = document.createElement('div');
  list.replaceWith(block);
  block.append(list);
}

/** Spans past these are a page's attempt to make one cell into millions: left as they are. */
const MAX_COLSPAN = 32;
const MAX_ROWSPAN = 64;

/** Gives every row a cell per column: a merged cell keeps its text in its first, the rest empty. */
function expandSpans(document: Document, table: Element): void {
  const spanned = table.querySelectorAll('td[colspan], th[colspan], td[rowspan], th[rowspan]');
  if (spanned.length === 0) return;
  const rows = Array.from(table.querySelectorAll('tr')).filter((row) => row.closest('table') === table);
  const span = (cell: Element, name: string, max: number) => {
    const value = Number(cell.getAttribute(name) ?? 1);
    return Number.isInteger(value) && value >= 1 && value <= max ? value : null;
  };
  if (
    Array.from(spanned).some(
      (c) => span(c, 'colspan', MAX_COLSPAN) === null || span(c, 'rowspan', MAX_ROWSPAN) === null,
    )
  )
    return;
  /** Columns still covered by a cell of an earlier row: column → rows left. */
  const covered = new Map<number, number>();
  for (const row of rows) {
    const cells = Array.from(row.children).filter((c) => c.tagName === 'TD' || c.tagName === 'TH');
    let column = 0;
    const fill = (before: Element | null, tag: string) => {
      while ((covered.get(column) ?? 0) > 0) {
        covered.set(column, covered.get(column)! - 1);
        row.insertBefore(document.createElement(tag), before);
        column++;
      }
    };
    for (const cell of cells) {
      fill(cell, cell.tagName);
      const colspan = span(cell, 'colspan', MAX_COLSPAN)!;
      const rowspan = span(cell, 'rowspan', MAX_ROWSPAN)!;
      cell.removeAttribute('colspan');
      cell.removeAttribute('rowspan');
      for (let extra = 1; extra < colspan; extra++)
        row.insertBefore(document.createElement(cell.tagName), cell.nextSibling);
      for (let k = 0; k < colspan; k++) if (rowspan > 1) covered.set(column + k, rowspan - 1);
      column += colspan;
    }
    fill(null, 'TD');
  }
}

function absoluteUrl(value: string, base: string): string | null {
  if (value.startsWith('#')) return value;
  try {
    return new URL(value, base).href;
  } catch {
    return null;
  }
}

/** `<pre>` → `<pre><code class="language-x">` with its text, unless it already is one. */
function fenceable(document: Document, pre: Element): void {
  const only = pre.children.length === 1 ? pre.firstElementChild : null;
  const code = only?.tagName === 'CODE' && textOutside(pre, only) === '' ? only : null;
  const language = languageOf(code) ?? languageAround(pre);
  if (code !== null) {
    if (language !== null && languageOf(code) === null) code.setAttribute('class', `language-${language}`);
    return;
  }
  const replacement = document.createElement('code');
  if (language !== null) replacement.setAttribute('class', `language-${language}`);
  replacement.textContent = pre.textContent ?? '';
  pre.replaceChildren(replacement);
}

/** The language named on a `<pre>` or on one of the few blocks a highlighter wraps it in. */
function languageAround(pre: Element): string | null {
  let at: Element | null = pre;
  for (let hops = 0; at !== null && hops < 4; hops++, at = at.parentElement) {
    const language = languageOf(at);
    if (language !== null) return language;
  }
  return null;
}

function languageOf(element: Element | null | undefined): string | null {
  const match = LANGUAGE_CLASS.exec(element?.getAttribute('class') ?? '');
  const language = match ? (match[1] ?? match[2]!).toLowerCase() : null;
  return language === null || NO_LANGUAGE.has(language) ? null : language;
}

function textOutside(parent: Element, child: Element): string {
  return Array.from(parent.childNodes)
    .filter((node) => node !== child)
    .map((node) => node.textContent ?? '')
    .join('')
    .trim();
}
