import type { SourceRange } from '@vmark/sdk';
import { parser } from '@vmark/sdk/markdown';
import { escapeMarkdownText } from './escape-markdown.js';
import { looksLikeMarkdown } from './looks-like-markdown.js';
import { sourceContext } from './source-context.js';

/** The textblocks whose inline content alone is spliced into a paragraph, and the marks around it. */
const INLINE_OF: Readonly<Record<string, (text: string) => string>> = {
  Paragraph: (text) => text,
  ATXHeading1: stripAtxMarks,
  ATXHeading2: stripAtxMarks,
  ATXHeading3: stripAtxMarks,
  ATXHeading4: stripAtxMarks,
  ATXHeading5: stripAtxMarks,
  ATXHeading6: stripAtxMarks,
};

/**
 * What goes into the Markdown source in place of `range` when the person
 * works in live preview (wysiwyg), by the seed's rule (vmark-notes §2.4):
 * - inside one paragraph or heading, text that does not look like Markdown
 *   is literal text: escaped wherever it would otherwise become markup;
 * - inside code or HTML it is taken as it is, since nothing there is markup;
 * - Markdown that parses to a single paragraph or heading gives only its
 *   inline content, so the paragraph it lands in is not split;
 * - other Markdown is blocks: set apart by blank lines from the text around
 *   the range, as the paragraph it lands in splits around them.
 */
export function wysiwygInsertion(source: string, range: SourceRange, content: string): string {
  if (content === '') return '';
  const context = sourceContext(source, range);
  if (context.kind === 'literal') return content;
  if (context.kind === 'prose') {
    if (!looksLikeMarkdown(content)) return escapeMarkdownText(content, context.atLineStart);
    const inline = inlineContent(content);
    if (inline !== null) return inline;
  }
  return asBlocks(source, range, content);
}

/** The inline Markdown of content that is one paragraph or ATX heading; null for anything else. */
function inlineContent(content: string): string | null {
  const top = parser.parse(content).topNode;
  const only = top.firstChild;
  if (only === null || only.nextSibling !== null) return null;
  const inline = INLINE_OF[only.name];
  return inline === undefined ? null : inline(content.slice(only.from, only.to));
}

function stripAtxMarks(heading: string): string {
  return heading.replace(/^[ \t]*#{1,6}(?:[ \t]+|$)/, '').replace(/(?:[ \t]+#+)?[ \t]*$/, '');
}

/** Blocks need a blank line between them and the prose before and after the range. */
function asBlocks(source: string, { from, to }: SourceRange, content: string): string {
  const body = content.replace(/\n+$/, '');
  return separator(source.slice(0, from), 'before') + body + separator(source.slice(to), 'after');
}

function separator(side: string, where: 'before' | 'after'): string {
  const lines = where === 'before' ? side.split('\n').reverse() : side.split('\n');
  const [sameLine = '', nextLine] = lines;
  if (sameLine.trim() !== '') return '\n\n';
  // Nothing else on the range's line: one newline more makes the line next to it a blank one.
  return nextLine !== undefined && nextLine.trim() !== '' ? '\n' : '';
}
