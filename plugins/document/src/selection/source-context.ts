import { parser as commonmarkParser, Strikethrough, Table, TaskList } from '@vmark/sdk/markdown';
import type { SourceRange } from '@vmark/sdk';

const markdownParser = commonmarkParser.configure([Table, Strikethrough, TaskList]);

/** Blocks whose text is one run of inline content (ProseMirror's textblocks). */
const PROSE_BLOCKS = /^(?:Paragraph|ATXHeading[1-6]|SetextHeading[12])$/;
/** Blocks and spans whose text is literal: nothing in them is markup. */
const LITERAL = /^(?:FencedCode|CodeBlock|HTMLBlock|CommentBlock)$/;
/** What may stand before a block's first character on its line: indentation and container marks. */
const CONTAINER_PREFIX = /^(?:[ \t]*(?:>|[-+*]|\d{1,9}[.)])(?=[ \t]|$))*[ \t]*$/;

/** Where a selection lies in the Markdown, as far as inserting text into it goes. */
export type SourceContext =
  /** Inside one paragraph or heading; `atLineStart` when nothing of its line comes before `from`. */
  | { readonly kind: 'prose'; readonly atLineStart: boolean }
  /** Inside code or HTML, where text is taken as it is. */
  | { readonly kind: 'literal' }
  /** Across blocks, or between them. */
  | { readonly kind: 'blocks' };

export function sourceContext(source: string, { from, to }: SourceRange): SourceContext {
  const lineStart = source.lastIndexOf('\n', from - 1) + 1;
  const atLineStart = CONTAINER_PREFIX.test(source.slice(lineStart, from));
  // Parents come before children: the last block that holds the whole range is the innermost.
  let innermost: SourceContext | undefined;
  markdownParser.parse(source).iterate({
    from,
    to,
    enter: (node) => {
      if (node.from > from || node.to < to) return;
      if (node.name === 'InlineCode') {
        // Only between its backticks; a range that takes the backticks too replaces the code span.
        if (node.from < from && to < node.to) innermost = { kind: 'literal' };
      } else if (LITERAL.test(node.name)) innermost = { kind: 'literal' };
      else if (PROSE_BLOCKS.test(node.name)) innermost = { kind: 'prose', atLineStart };
    },
  });
  if (innermost !== undefined) return innermost;
  // A blank line is an empty paragraph to the person looking at it.
  const lineEnd = source.indexOf('\n', to);
  const line = source.slice(lineStart, lineEnd === -1 ? source.length : lineEnd);
  return line.trim() === '' ? { kind: 'prose', atLineStart: true } : { kind: 'blocks' };
}
