import type { BlockContext, Element, InlineContext, Line, MarkdownConfig } from '@lezer/markdown';

/*
 * What GFM leaves out and Live mode renders (ADR 73): math (`$…$` inline, `$$…$$` a block, as
 * KaTeX, Obsidian and pandoc read it) and footnotes (`[^id]` references, `[^id]: …` definitions).
 * Callouts need no syntax of their own: a callout is a block quote whose first line is `[!type]`.
 */

const DOLLAR = 36;
const BACKSLASH = 92;
const NEWLINE = 10;

const isSpace = (ch: number) => ch === 32 || ch === 9 || ch === NEWLINE || ch === 13;
const isDigit = (ch: number) => ch >= 48 && ch <= 57;

/**
 * `$…$`: the opening `$` not followed by a space, the closing one not preceded by a space nor
 * followed by a digit (so "costs $5 and $6" stays text), on one line, `\$` escaped inside; `$$`
 * inline is left alone (a block is `$$` on its own line).
 */
function inlineMath(cx: InlineContext, next: number, start: number): number {
  if (next !== DOLLAR) return -1;
  const first = cx.char(start + 1);
  if (first === DOLLAR || first === -1 || isSpace(first)) return -1;
  for (let pos = start + 1; pos < cx.end; pos++) {
    const ch = cx.char(pos);
    if (ch === NEWLINE) return -1;
    if (ch === BACKSLASH) {
      pos++;
      continue;
    }
    if (ch !== DOLLAR) continue;
    if (isSpace(cx.char(pos - 1)) || isDigit(cx.char(pos + 1))) return -1;
    return cx.addElement(
      cx.elt('InlineMath', start, pos + 1, [
        cx.elt('InlineMathMark', start, start + 1),
        cx.elt('InlineMathMark', pos, pos + 1),
      ]),
    );
  }
  return -1;
}

/** Where a line's `$$` closes a math block: its end when the trimmed line ends in `$$`, else -1. */
function closingDollars(text: string, from: number): number {
  const trimmed = text.trimEnd();
  return trimmed.length - from >= 2 && trimmed.endsWith('$$') ? trimmed.length : -1;
}

/**
 * Whether the next line is still inside the block's containers (a quote, a list item): lezer's own
 * test in its fenced code parser, with `Line.depth`, which its types leave out.
 */
export function continues(cx: BlockContext, line: Line): boolean {
  return (line as unknown as { depth: number }).depth >= cx.depth;
}

/**
 * `$$` at the start of a line (up to three spaces in) opens a math block, closed by the first line
 * that ends in `$$` (the same line too: `$$x^2$$`). Unclosed, it runs to the end of its container,
 * as a fenced code block does.
 */
function blockMath(cx: BlockContext, line: Line): boolean {
  if (line.indent - line.baseIndent >= 4) return false;
  if (line.next !== DOLLAR || line.text.charCodeAt(line.pos + 1) !== DOLLAR) return false;
  const from = cx.lineStart + line.pos;
  const marks: Element[] = [cx.elt('BlockMathMark', from, from + 2)];
  const sameLine = closingDollars(line.text, line.pos + 2);
  if (sameLine >= 0 && sameLine - line.pos >= 4) {
    marks.push(cx.elt('BlockMathMark', cx.lineStart + sameLine - 2, cx.lineStart + sameLine));
    cx.nextLine();
    cx.addElement(cx.elt('BlockMath', from, cx.prevLineEnd(), marks));
    return true;
  }
  while (cx.nextLine() && continues(cx, line)) {
    const close = closingDollars(line.text, line.pos);
    if (close >= 0) {
      marks.push(cx.elt('BlockMathMark', cx.lineStart + close - 2, cx.lineStart + close));
      cx.nextLine();
      break;
    }
  }
  cx.addElement(cx.elt('BlockMath', from, cx.prevLineEnd(), marks));
  return true;
}

/** A footnote label: `[^` then one or more characters other than space, `[` and `]`, then `]`. */
const FOOTNOTE_LABEL = /^\[\^[^\s[\]]+\]/;

function footnoteReference(cx: InlineContext, next: number, start: number): number {
  if (next !== 91 /* [ */ || cx.char(start + 1) !== 94 /* ^ */) return -1;
  const match = FOOTNOTE_LABEL.exec(cx.slice(start, Math.min(cx.end, start + 200)));
  if (match === null) return -1;
  return cx.addElement(cx.elt('FootnoteReference', start, start + match[0].length));
}

/** `[^id]: text` at the start of a line: one line, its text Markdown inline. */
function footnoteDefinition(cx: BlockContext, line: Line): boolean {
  if (line.indent - line.baseIndent >= 4 || line.next !== 91) return false;
  const match = FOOTNOTE_LABEL.exec(line.text.slice(line.pos));
  if (match === null || line.text.charCodeAt(line.pos + match[0].length) !== 58) return false;
  const from = cx.lineStart + line.pos;
  const labelEnd = from + match[0].length + 1;
  const textStart = line.skipSpace(line.pos + match[0].length + 1);
  const children: Element[] = [cx.elt('FootnoteLabel', from, labelEnd)];
  children.push(...cx.parser.parseInline(line.text.slice(textStart), cx.lineStart + textStart));
  const to = cx.lineStart + line.text.length;
  cx.nextLine();
  cx.addElement(cx.elt('FootnoteDefinition', from, to, children));
  return true;
}

export const MathSyntax: MarkdownConfig = {
  defineNodes: [
    { name: 'InlineMath' },
    { name: 'InlineMathMark' },
    { name: 'BlockMath', block: true },
    { name: 'BlockMathMark' },
  ],
  parseInline: [{ name: 'InlineMath', parse: inlineMath, before: 'Escape' }],
  parseBlock: [{ name: 'BlockMath', parse: blockMath, before: 'FencedCode' }],
};

export const FootnoteSyntax: MarkdownConfig = {
  defineNodes: [
    { name: 'FootnoteReference' },
    { name: 'FootnoteDefinition', block: true },
    { name: 'FootnoteLabel' },
  ],
  parseInline: [{ name: 'FootnoteReference', parse: footnoteReference, before: 'Link' }],
  parseBlock: [{ name: 'FootnoteDefinition', parse: footnoteDefinition, before: 'Blockquote' }],
};
