/**
 * Markdown to HTML from the project's one parser's tree (`@vmark/sdk/markdown`, GFM and
 * wikilinks), for export (ADR 75). Everything from the note is escaped; raw HTML is sanitized:
 * a short list of formatting tags without attributes is kept, everything else (script, style,
 * iframes, event handlers, comments) is shown as text. Link targets with a scheme other than
 * http(s) or mailto are dropped. Images are left to `image(src, alt)`, which the exporter gives
 * (it inlines them from the workspace).
 */
import type { SyntaxNode } from '@lezer/common';
import { frontMatterLength, GFM, parser, Wikilink, wikilinkParts } from '@vmark/sdk/markdown';

const markdown = parser.configure([GFM, Wikilink]);

/** Raw HTML tags kept (without attributes); every other tag is shown as text. */
const SAFE_TAGS = new Set([
  'b',
  'i',
  'em',
  'strong',
  'u',
  's',
  'del',
  'ins',
  'mark',
  'sub',
  'sup',
  'kbd',
  'small',
  'br',
  'hr',
  'code',
]);

export interface RenderOptions {
  /** The `<img>` (or anything) for an image: `src` as written (or a wikilink embed's name). */
  readonly image: (src: string, alt: string, embed: boolean) => string;
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The body HTML of a note. */
export function markdownToHtml(text: string, options: RenderOptions): string {
  const skip = frontMatterLength(text);
  const body = skip > 0 ? ' '.repeat(skip) + text.slice(skip) : text;
  const tree = markdown.parse(body);
  return new Renderer(body, options).children(tree.topNode);
}

class Renderer {
  constructor(
    private readonly text: string,
    private readonly options: RenderOptions,
  ) {}

  slice(from: number, to: number): string {
    return this.text.slice(from, to);
  }

  /** Every child block of a container, rendered one after the other. */
  children(node: SyntaxNode): string {
    let out = '';
    for (let child = node.firstChild; child !== null; child = child.nextSibling) {
      // A block's own marks (`>`, list marks) are syntax, not content.
      if (!child.name.endsWith('Mark')) out += this.node(child);
    }
    return out;
  }

  /** Inline content between `from` and `to`: text escaped, child nodes rendered. */
  inline(node: SyntaxNode, from = node.from, to = node.to): string {
    let out = '';
    let at = from;
    for (let child = node.firstChild; child !== null; child = child.nextSibling) {
      if (child.to <= from || child.from >= to) continue;
      if (child.from > at) out += escapeHtml(this.slice(at, child.from));
      // A quote's `>` on a continuation line is syntax, with the space after it.
      out += child.name === 'QuoteMark' ? '' : this.node(child);
      at = child.name === 'QuoteMark' && this.text[child.to] === ' ' ? child.to + 1 : child.to;
    }
    if (at < to) out += escapeHtml(this.slice(at, to));
    return out;
  }

  /** The inline content of a node without its marks (of the given names) at either end. */
  inner(node: SyntaxNode, mark: string): string {
    const marks = node.getChildren(mark);
    const first = marks[0];
    const last = marks.length > 1 ? marks[marks.length - 1] : undefined;
    const from = first !== undefined && first.from === node.from ? first.to : node.from;
    const to = last !== undefined && last.to === node.to ? last.from : node.to;
    return this.inline(node, from, to);
  }

  node(node: SyntaxNode): string {
    const name = node.name;
    const heading = /^(?:ATX|Setext)Heading([1-6])$/.exec(name);
    if (heading) {
      const level = heading[1]!;
      return `<h${level}>${this.inline(node, ...this.#headingRange(node)).trim()}</h${level}>\n`;
    }
    switch (name) {
      case 'Paragraph':
        return `<p>${this.inline(node).trim()}</p>\n`;
      case 'Blockquote':
        return `<blockquote>\n${this.children(node)}</blockquote>\n`;
      case 'BulletList':
        return `<ul>\n${this.children(node)}</ul>\n`;
      case 'OrderedList': {
        const start = Number.parseInt(
          this.slice(node.firstChild?.firstChild?.from ?? 0, node.firstChild?.firstChild?.to ?? 0),
          10,
        );
        return `<ol${Number.isFinite(start) && start !== 1 ? ` start="${start}"` : ''}>\n${this.children(node)}</ol>\n`;
      }
      case 'ListItem':
        return `<li>${this.#listItem(node)}</li>\n`;
      case 'Task': {
        const marker = node.getChild('TaskMarker');
        const checked = marker !== null && /x/i.test(this.slice(marker.from, marker.to));
        return `<input type="checkbox" disabled${checked ? ' checked' : ''}> ${this.inline(node, marker?.to ?? node.from).trim()}`;
      }
      case 'FencedCode':
      case 'CodeBlock': {
        const info = node.getChild('CodeInfo');
        const code = node.getChildren('CodeText').map((t) => this.slice(t.from, t.to));
        const language = info ? ` class="language-${escapeHtml(this.slice(info.from, info.to).trim())}"` : '';
        const textOf =
          name === 'CodeBlock' ? this.#indentedCode(node) : code.length > 0 ? `${code.join('')}\n` : '';
        return `<pre><code${language}>${escapeHtml(textOf)}</code></pre>\n`;
      }
      case 'HorizontalRule':
        return '<hr>\n';
      case 'HTMLBlock':
      case 'CommentBlock':
      case 'ProcessingInstructionBlock':
        return `<p class="raw-html">${this.#rawHtml(this.slice(node.from, node.to))}</p>\n`;
      case 'LinkReference':
        return '';
      case 'Table':
        return this.#table(node);
      case 'Emphasis':
        return `<em>${this.inner(node, 'EmphasisMark')}</em>`;
      case 'StrongEmphasis':
        return `<strong>${this.inner(node, 'EmphasisMark')}</strong>`;
      case 'Strikethrough':
        return `<del>${this.inner(node, 'StrikethroughMark')}</del>`;
      case 'InlineCode':
        return `<code>${escapeHtml(this.#codeText(node))}</code>`;
      case 'Escape':
        return escapeHtml(this.slice(node.from + 1, node.to));
      case 'Entity':
        return this.slice(node.from, node.to);
      case 'HardBreak':
        return '<br>\n';
      case 'HTMLTag':
      case 'Comment':
      case 'ProcessingInstruction':
        return this.#rawHtml(this.slice(node.from, node.to));
      case 'Autolink':
      case 'URL': {
        const url = this.slice(node.from, node.to).replace(/^<|>$/g, '');
        const href = safeHref(url.includes('@') && !url.includes(':') ? `mailto:${url}` : url);
        return href === null ? escapeHtml(url) : `<a href="${escapeHtml(href)}">${escapeHtml(url)}</a>`;
      }
      case 'Link':
        return this.#link(node);
      case 'Image': {
        const marks = node.getChildren('LinkMark');
        const url = node.getChild('URL');
        const alt = marks.length >= 2 ? this.slice(marks[0]!.to, marks[1]!.from) : '';
        return url === null
          ? escapeHtml(this.slice(node.from, node.to))
          : this.options.image(this.#destination(url), alt, false);
      }
      case 'Wikilink': {
        const target = node.getChild('WikilinkTarget');
        const parts = wikilinkParts(target ? this.slice(target.from, target.to) : '');
        return `<span class="wikilink">${escapeHtml(parts.alias ?? parts.target)}</span>`;
      }
      case 'WikilinkEmbed': {
        const target = node.getChild('WikilinkTarget');
        const parts = wikilinkParts(target ? this.slice(target.from, target.to) : '');
        return this.options.image(parts.target, parts.alias ?? parts.target, true);
      }
      default:
        // Marks and anything not listed: their text as it is, escaped.
        return node.firstChild ? this.inline(node) : escapeHtml(this.slice(node.from, node.to));
    }
  }

  #headingRange(node: SyntaxNode): [number, number] {
    const marks = node.getChildren('HeaderMark');
    if (node.name.startsWith('Setext')) return [node.from, marks[0]?.from ?? node.to];
    const open = marks[0];
    const close = marks.length > 1 ? marks[marks.length - 1] : undefined;
    return [
      open?.from === node.from ? open.to : node.from,
      close && close.to === node.to ? close.from : node.to,
    ];
  }

  #listItem(node: SyntaxNode): string {
    // A tight item's paragraph is shown without <p>, as Markdown renderers do.
    let out = '';
    for (let child = node.firstChild; child !== null; child = child.nextSibling) {
      if (child.name === 'ListMark') continue;
      out += child.name === 'Paragraph' ? this.inline(child).trim() + '\n' : this.node(child);
    }
    return out.trim();
  }

  #indentedCode(node: SyntaxNode): string {
    return this.slice(node.from, node.to)
      .split('\n')
      .map((line) => line.replace(/^( {4}|\t)/, ''))
      .join('\n')
      .concat('\n');
  }

  #codeText(node: SyntaxNode): string {
    const marks = node.getChildren('CodeMark');
    const from = marks[0]?.to ?? node.from;
    const to = marks.length > 1 ? marks[marks.length - 1]!.from : node.to;
    const text = this.slice(from, to).replace(/\n/g, ' ');
    return /^ .* $/.test(text) && text.trim() !== '' ? text.slice(1, -1) : text;
  }

  #destination(url: SyntaxNode): string {
    return this.slice(url.from, url.to).replace(/^<(.*)>$/s, '$1');
  }

  #link(node: SyntaxNode): string {
    const marks = node.getChildren('LinkMark');
    const url = node.getChild('URL');
    const label = marks.length >= 2 ? this.inline(node, marks[0]!.to, marks[1]!.from) : this.inline(node);
    if (url === null) return label;
    const href = safeHref(this.#destination(url));
    return href === null ? label : `<a href="${escapeHtml(href)}">${label}</a>`;
  }

  #table(node: SyntaxNode): string {
    const rows: string[] = [];
    for (let row = node.firstChild; row !== null; row = row.nextSibling) {
      if (row.name !== 'TableHeader' && row.name !== 'TableRow') continue;
      const cell = row.name === 'TableHeader' ? 'th' : 'td';
      const cells = row.getChildren('TableCell').map((c) => `<${cell}>${this.inline(c).trim()}</${cell}>`);
      rows.push(`<tr>${cells.join('')}</tr>`);
    }
    return `<table>\n${rows.join('\n')}\n</table>\n`;
  }

  /** Raw HTML: the safe formatting tags (attributes dropped), everything else as text. */
  #rawHtml(html: string): string {
    return html.replace(
      /<(\/?)([a-zA-Z][a-zA-Z0-9]*)\b[^<>]*>|[^<]+|</g,
      (whole, close: string, tag: string) => {
        if (tag !== undefined && SAFE_TAGS.has(tag.toLowerCase())) return `<${close}${tag.toLowerCase()}>`;
        return escapeHtml(whole);
      },
    );
  }
}

/** A link's target as an export may keep it: http(s), mailto, a fragment or a relative path. */
export function safeHref(url: string): string | null {
  const trimmed = url.trim();
  if (/^(https?:|mailto:)/i.test(trimmed)) return trimmed;
  if (/^[a-z][a-z0-9+.-]*:/i.test(trimmed) || /^\s*\/\//.test(trimmed)) return null;
  return trimmed;
}
