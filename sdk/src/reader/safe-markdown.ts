/**
 * The last step of every reader: Markdown that page text cannot turn into something else.
 * Page-authored markup never becomes live HTML (every `<` outside code and link destinations is
 * escaped, so `<script>`, `<img onerror>` or a fake `<tool_call>` stay visible text), and the
 * result never opens with a front-matter fence (`---`, `+++`), which an editor would read as
 * the document's metadata.
 */
import { GFM, parser } from '@lezer/markdown';

const markdown = parser.configure(GFM);
/** Nodes whose text is not Markdown prose: a `<` there is code or part of a URL. */
const VERBATIM = new Set(['FencedCode', 'CodeBlock', 'InlineCode', 'URL', 'LinkReference']);
/** `$$…$$` blocks and `$…$` spans, as defuddle writes math. */
const MATH = /\$\$[\s\S]*?\$\$|\$[^$\n]+\$/g;
/** What may follow `<` to open a tag, a comment, a declaration or an autolink. */
const TAG_START = /[A-Za-z/!?]/;
const FENCE_LINE = /^(?:[ \t]*(?:-[ \t]*){3,}|[ \t]*(?:\*[ \t]*){3,}|[ \t]*(?:_[ \t]*){3,}|\+{3,}[ \t]*)$/;

export function safeMarkdown(text: string): string {
  return escapeLeftovers(escapeMarkup(dropLeadingFences(text)));
}

/** Markup nodes a backslash did not disarm (GFM reads `www.x/\` as a URL, backslash and all). */
const LIVE = new Set(['HTMLBlock', 'HTMLTag', 'Comment', 'ProcessingInstruction']);

/** Whatever still parses as markup gets its `<` as a character reference, which nothing reads as markup. */
function escapeLeftovers(text: string): string {
  for (let pass = 0; pass < 3; pass++) {
    const starts: number[] = [];
    markdown.parse(text).iterate({
      enter(node) {
        if (!LIVE.has(node.name)) return true;
        if (text[node.from] === '<') starts.push(node.from);
        return false;
      },
    });
    if (starts.length === 0) return text;
    for (const at of starts.reverse()) text = `${text.slice(0, at)}&lt;${text.slice(at + 1)}`;
  }
  return text;
}

function dropLeadingFences(text: string): string {
  const lines = text.split('\n');
  while (lines.length > 0 && (lines[0]!.trim() === '' || FENCE_LINE.test(lines[0]!))) lines.shift();
  return lines.join('\n');
}

function escapeMarkup(text: string): string {
  const verbatim: Array<[number, number]> = [];
  markdown.parse(text).iterate({
    enter(node) {
      if (!VERBATIM.has(node.name)) return true;
      verbatim.push([node.from, node.to]);
      return false;
    },
  });
  // Math is LaTeX, where `\<` means something else.
  for (const match of text.matchAll(MATH)) verbatim.push([match.index, match.index + match[0].length]);
  const ranges = merged(verbatim);
  let out = '';
  let at = 0;
  let range = 0;
  for (let i = text.indexOf('<'); i !== -1; i = text.indexOf('<', i + 1)) {
    while (range < ranges.length && ranges[range]![1] <= i) range++;
    const inside = range < ranges.length && ranges[range]![0] <= i;
    if (inside || !TAG_START.test(text[i + 1] ?? '') || isEscaped(text, i)) continue;
    out += text.slice(at, i) + '\\<';
    at = i + 1;
  }
  return out + text.slice(at);
}

/** The ranges sorted and with overlaps joined, so one forward scan can test positions. */
function merged(ranges: Array<[number, number]>): Array<[number, number]> {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  const out: Array<[number, number]> = [];
  for (const [from, to] of sorted) {
    const last = out.at(-1);
    if (last !== undefined && from <= last[1]) last[1] = Math.max(last[1], to);
    else out.push([from, to]);
  }
  return out;
}

/** Whether the character at `index` follows an odd run of backslashes. */
function isEscaped(text: string, index: number): boolean {
  let slashes = 0;
  for (let i = index - 1; i >= 0 && text[i] === '\\'; i--) slashes++;
  return slashes % 2 === 1;
}
