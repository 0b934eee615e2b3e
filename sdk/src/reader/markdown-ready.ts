/**
 * HTML made ready for the Markdown serializer, whoever chose it (a reader or a site extractor):
 * every link and image URL absolute, and every code block a `<pre><code>` that names its
 * language — taken from the classes highlighters leave (`language-x`, `lang-x`,
 * `highlight-source-x`, MDN's `brush: x`) — so that it becomes a fence that keeps it; a
 * heading's anchor link to itself is only its text.
 */
import { parseHtml } from './parse-html.js';

const LANGUAGE_CLASS =
  /(?:^|\s)(?:language|lang|highlight-source)-([A-Za-z0-9_+#-]+)|brush:\s*([A-Za-z0-9_+#-]+)/;

export function markdownReady(html: string, url: string): string {
  const document = parseHtml(`<!doctype html><html><body>${html}</body></html>`);
  const body = document.body;
  if (!body) return html;
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
  for (const pre of Array.from(body.querySelectorAll('pre'))) fenceable(document, pre);
  // A heading's link to itself (`<h2><a href="#syntax">Syntax</a></h2>`) is an anchor, not a link.
  for (const link of Array.from(
    body.querySelectorAll('h1 > a[href^="#"], h2 > a[href^="#"], h3 > a[href^="#"], h4 > a[href^="#"]'),
  ))
    link.replaceWith(...Array.from(link.childNodes));
  return body.innerHTML;
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
  const language = languageOf(code) ?? languageOf(pre) ?? languageOf(pre.parentElement);
  if (code !== null) {
    if (language !== null && languageOf(code) === null) code.setAttribute('class', `language-${language}`);
    return;
  }
  const replacement = document.createElement('code');
  if (language !== null) replacement.setAttribute('class', `language-${language}`);
  replacement.textContent = pre.textContent ?? '';
  pre.replaceChildren(replacement);
}

function languageOf(element: Element | null | undefined): string | null {
  const match = LANGUAGE_CLASS.exec(element?.getAttribute('class') ?? '');
  return match ? (match[1] ?? match[2]!).toLowerCase() : null;
}

function textOutside(parent: Element, child: Element): string {
  return Array.from(parent.childNodes)
    .filter((node) => node !== child)
    .map((node) => node.textContent ?? '')
    .join('')
    .trim();
}
