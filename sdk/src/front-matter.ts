/*
 * YAML front matter, recognised one way for every part of vmark that needs it (the CJK
 * transforms leave it as it is, the editor shows it as metadata). Markdown itself knows no
 * front matter: @lezer/markdown reads it as a thematic break and a setext heading.
 *
 * The rule (vmark-notes §4.3's grammar, `"---" NL { line NL } "---"`, which admits zero lines):
 * an optional byte-order mark, a first line that is `---`, then every line up to the first
 * later line that is `---` or `...` (Pandoc's closer; the original accepts both). Trailing
 * spaces or tabs on a fence line are allowed, and lines end in LF or CRLF. The very next line
 * may close it (`---\n---\n` is empty front matter). Inside, nothing is Markdown: a ``` line
 * opens no code block, so a `---` after it still closes. Unclosed, it is no front matter.
 */

const FENCE_LINE = /^(?:---|\.\.\.)[ \t]*$/;
const OPENING_LINE = /^\uFEFF?---[ \t]*$/;

/**
 * The length of the front matter at the start of `text`, through the end of its closing
 * fence line (the line break after it not included), or 0 when `text` has none.
 */
export function frontMatterLength(text: string): number {
  if (!text.startsWith('---') && !text.startsWith('\uFEFF---')) return 0;
  let lineStart = 0;
  for (let lineNumber = 0; lineStart <= text.length; lineNumber++) {
    const newline = text.indexOf('\n', lineStart);
    const lineEnd = newline === -1 ? text.length : newline;
    const line = text.slice(lineStart, text[lineEnd - 1] === '\r' ? lineEnd - 1 : lineEnd);
    if (lineNumber === 0) {
      if (!OPENING_LINE.test(line)) return 0;
    } else if (FENCE_LINE.test(line)) {
      return lineStart + line.length;
    }
    if (newline === -1) return 0;
    lineStart = newline + 1;
  }
  return 0;
}
