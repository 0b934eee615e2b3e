/*
 * The seed's test (vmark-notes §2.4) for whether text an AI hands to
 * `selection.set` in wysiwyg mode is Markdown or plain text.
 */

/** A line that opens a block: heading, quote, list item, fence, thematic break, or a tab. */
const BLOCK_LINE = /^(?:#{1,6}\s|>\s|[-+*]\s|\d+\.\s|```|~~~|---|\t)/m;
/** Strong, code, link, image, strikethrough. */
const INLINE_MARKER = /\*\*|__|`|\[[^\]]*\]\(|!\[|~~/;
/** Paired single-asterisk emphasis. Underscores are left out: `snake_case` is plain text. */
const STAR_EMPHASIS = /\*[^\s*][^*]*\*/;

export function looksLikeMarkdown(content: string): boolean {
  return (
    content.includes('\n\n') ||
    BLOCK_LINE.test(content) ||
    INLINE_MARKER.test(content) ||
    STAR_EMPHASIS.test(content)
  );
}
