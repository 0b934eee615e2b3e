/**
 * Obsidian's wikilinks as a @lezer/markdown extension, so the editor's live preview and the
 * plugins that follow or rewrite links read them alike: `[[note]]`, `[[note#heading]]`,
 * `[[note|alias]]`, `[[#heading]]` (the same note) and embeds `![[picture.png]]`. One line, no
 * `[` or `]` inside; code spans and escapes win as they do over any link.
 *
 * Nodes: `Wikilink` or `WikilinkEmbed`, holding a `WikilinkMark` for each bracket pair (the `!`
 * of an embed with the first) and the text between as `WikilinkTarget`; `wikilinkParts` splits
 * that text.
 */
import type { InlineContext, MarkdownConfig } from '@lezer/markdown';

const BANG = 33;
const OPEN = 91;
const CLOSE = 93;
const NEWLINE = 10;

export const Wikilink: MarkdownConfig = {
  defineNodes: ['Wikilink', 'WikilinkEmbed', 'WikilinkMark', 'WikilinkTarget'],
  parseInline: [{ name: 'Wikilink', before: 'Link', parse: parseWikilink }],
};

function parseWikilink(cx: InlineContext, next: number, pos: number): number {
  const embed = next === BANG;
  const open = embed ? pos + 1 : pos;
  if ((embed ? cx.char(open) : next) !== OPEN || cx.char(open + 1) !== OPEN) return -1;
  const start = open + 2;
  let end = start;
  for (; end < cx.end; end++) {
    const char = cx.char(end);
    if (char === NEWLINE || char === OPEN) return -1;
    if (char === CLOSE) break;
  }
  if (cx.char(end) !== CLOSE || cx.char(end + 1) !== CLOSE) return -1;
  const parts = wikilinkParts(cx.slice(start, end));
  if (parts.target === '' && parts.heading === null) return -1;
  return cx.addElement(
    cx.elt(embed ? 'WikilinkEmbed' : 'Wikilink', pos, end + 2, [
      cx.elt('WikilinkMark', pos, start),
      cx.elt('WikilinkTarget', start, end),
      cx.elt('WikilinkMark', end, end + 2),
    ]),
  );
}

export interface WikilinkParts {
  /** The note or file named, as written (no `.md` added); empty for a link into the same note. */
  readonly target: string;
  /** What follows the first `#` (a heading, or `^id` for a block), or null. */
  readonly heading: string | null;
  /** What follows the first `|` (`\|` in a table cell counts), or null. */
  readonly alias: string | null;
}

/** The parts of a wikilink's inner text (what lies between `[[` and `]]`). */
export function wikilinkParts(inner: string): WikilinkParts {
  const pipe = inner.search(/\\?\|/);
  const alias = pipe === -1 ? null : inner.slice(inner[pipe] === '\\' ? pipe + 2 : pipe + 1);
  const linked = pipe === -1 ? inner : inner.slice(0, pipe);
  const hash = linked.indexOf('#');
  return {
    target: (hash === -1 ? linked : linked.slice(0, hash)).trim(),
    heading: hash === -1 ? null : linked.slice(hash + 1).trim(),
    alias,
  };
}
