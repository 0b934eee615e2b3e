/// <reference lib="dom" />
import type { SyntaxNode } from '@lezer/common';
import { GFM, parser } from '@lezer/markdown';
import { FootnoteSyntax, MathSyntax } from './syntax.js';

/*
 * A table cell's Markdown drawn as elements: emphasis, strong, strikethrough, code, links (their
 * text), math, footnote references. Text is set as text, never as HTML.
 */

const markdown = parser.configure([GFM, MathSyntax, FootnoteSyntax]);

const TAGS: Record<string, string> = {
  Emphasis: 'em',
  StrongEmphasis: 'strong',
  Strikethrough: 'del',
  InlineCode: 'code',
  Link: 'span',
};

/** Marks that are syntax, not text: dropped from the drawing. */
const MARKS = new Set([
  'EmphasisMark',
  'StrikethroughMark',
  'CodeMark',
  'LinkMark',
  'URL',
  'LinkTitle',
  'LinkLabel',
  'Escape',
]);

export type MathRenderer = (element: HTMLElement, tex: string, display: boolean) => void;

function draw(text: string, node: SyntaxNode, parent: Node, math: MathRenderer): void {
  let pos = node.from;
  const flush = (to: number) => {
    if (to > pos) parent.appendChild(document.createTextNode(text.slice(pos, to)));
  };
  for (let child = node.firstChild; child !== null; child = child.nextSibling) {
    flush(child.from);
    pos = child.to;
    if (child.name === 'Escape') {
      parent.appendChild(document.createTextNode(text.slice(child.from + 1, child.to)));
    } else if (MARKS.has(child.name)) {
      // Nothing: the mark itself is not shown.
    } else if (child.name === 'InlineMath') {
      const span = document.createElement('span');
      span.className = 'cm-lp-math';
      math(span, text.slice(child.from + 1, child.to - 1), false);
      parent.appendChild(span);
    } else if (child.name === 'FootnoteReference') {
      const sup = document.createElement('sup');
      sup.className = 'cm-lp-fnref';
      sup.textContent = text.slice(child.from + 2, child.to - 1);
      parent.appendChild(sup);
    } else if (TAGS[child.name] !== undefined) {
      const element = document.createElement(TAGS[child.name]!);
      if (child.name === 'Link') element.className = 'cm-lp-link';
      draw(text, child, element, math);
      parent.appendChild(element);
    } else {
      draw(text, child, parent, math);
    }
  }
  flush(node.to);
}

/** `text` (one cell's Markdown) drawn into `parent`. */
export function renderInline(text: string, parent: HTMLElement, math: MathRenderer): void {
  const top = markdown.parse(text).topNode;
  const paragraph = top.firstChild;
  if (paragraph === null) return;
  draw(text, paragraph, parent, math);
}
