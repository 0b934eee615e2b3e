/**
 * The protected regions @lezer/markdown (the project's one Markdown parser) can see:
 * code, HTML, link syntax, escapes, character references, hard breaks, and the
 * punctuation that IS the Markdown (list, quote and heading marks, table pipes,
 * emphasis delimiters, task markers, thematic breaks). Protecting that markup, and not
 * only the regions the design notes list, is what keeps a rule from breaking the
 * document's structure: a dash rule must not see a table's `|---|` row, and a spacing
 * rule must not push a space inside `**…**`.
 */
import { parser as commonmarkParser, Strikethrough, Table, TaskList } from '@vmark/sdk/markdown';
import type { ProtectedRegion, RegionKind } from './region-types.js';

/**
 * GFM tables, strikethrough and task lists. GFM's bare-URL autolinks are left out on
 * purpose: they run to the next whitespace, which in CJK prose is often the end of the
 * sentence (`访问https://example.com获取…`), so bare URLs are instead protected from
 * punctuation rules by the Latin span scanner, which stops at the first CJK letter.
 */
const markdownParser = commonmarkParser.configure([Table, Strikethrough, TaskList]);

type Tree = ReturnType<typeof markdownParser.parse>;
type SyntaxNode = Tree['topNode'];

/** Nodes protected whole, with their kind and whether they sit inside a line of prose. */
const WHOLE: ReadonlyMap<string, readonly [RegionKind, boolean]> = new Map<
  string,
  readonly [RegionKind, boolean]
>([
  ['FencedCode', ['code', false]],
  ['CodeBlock', ['code', false]],
  ['InlineCode', ['code', true]],
  ['HTMLBlock', ['html', false]],
  ['CommentBlock', ['html', false]],
  ['ProcessingInstructionBlock', ['html', false]],
  ['HTMLTag', ['html', true]],
  ['Comment', ['html', true]],
  ['ProcessingInstruction', ['html', true]],
  ['Autolink', ['link-syntax', true]],
  ['Escape', ['escape', true]],
  ['Entity', ['entity', true]],
  ['HardBreak', ['hard-break', true]],
  ['HorizontalRule', ['markup', false]],
  ['TableDelimiter', ['markup', false]],
  ['HeaderMark', ['markup', false]],
  ['QuoteMark', ['markup', false]],
  ['ListMark', ['markup', false]],
  ['TaskMarker', ['markup', false]],
  ['EmphasisMark', ['markup', true]],
  ['StrikethroughMark', ['markup', true]],
]);

const HEADING = /^(?:ATXHeading|SetextHeading)([1-6])$/;

/** A top-level heading, for `skipReferenceSections`. */
export interface Heading {
  from: number;
  level: number;
  title: string;
}

export interface MarkdownScan {
  regions: ProtectedRegion[];
  headings: Heading[];
}

/**
 * Walks the parse of `text` and returns its protected regions (offsets shifted by
 * `offset`, for text that follows front matter) and its top-level headings.
 */
export function scanMarkdown(text: string, offset = 0): MarkdownScan {
  // The parser splits lines on "\n" only, so a CRLF document would keep "\r" inside its
  // lines and lose its hard breaks and closing fences. A space has the same length,
  // so offsets stay valid.
  const source = text.includes('\r') ? text.replace(/\r(?=\n)/g, ' ') : text;
  const tree = markdownParser.parse(source);
  const regions: ProtectedRegion[] = [];
  const headings: Heading[] = [];
  const labels = new Set<string>();
  const shortcuts: { from: number; to: number; label: string }[] = [];
  const push = (from: number, to: number, kind: RegionKind, inline: boolean) => {
    if (to > from) regions.push({ from: from + offset, to: to + offset, kind, inline });
  };

  tree.iterate({
    enter(ref) {
      const name = ref.name;
      const whole = WHOLE.get(name);
      if (whole) {
        push(ref.from, ref.to, whole[0], whole[1]);
        return false;
      }
      if (name === 'Link' || name === 'Image') return enterLink(ref.node);
      if (name === 'LinkReference') return enterDefinition(ref.node);
      const heading = HEADING.exec(name);
      if (heading && ref.node.parent?.name === 'Document') {
        headings.push({ from: ref.from + offset, level: Number(heading[1]), title: headingTitle(ref.node) });
      }
      return undefined;
    },
  });

  for (const link of shortcuts) {
    if (labels.has(link.label)) push(link.from, link.to, 'link-syntax', true);
  }
  return { regions, headings };

  /** `[text](url "title")`, `[text][label]`, `[label][]`, `[label]`, and the image forms. */
  function enterLink(node: SyntaxNode): boolean {
    const marks: SyntaxNode[] = [];
    let hasDestination = false;
    let fullLabel = false;
    for (let child = node.firstChild; child; child = child.nextSibling) {
      if (child.name === 'LinkMark') marks.push(child);
      else if (child.name === 'URL') hasDestination = true;
      else if (child.name === 'LinkLabel' && child.to - child.from > 2) fullLabel = true;
    }
    const open = marks[0];
    const close = marks.find((mark) => source.charCodeAt(mark.from) === 0x5d /* ] */);
    if (!open || !close) return true;
    if (hasDestination || fullLabel) {
      // The text between the brackets is prose; the rest is syntax.
      push(open.from, open.to, 'link-syntax', true);
      push(close.from, node.to, 'link-syntax', true);
      return true;
    }
    const label = source.slice(open.to, close.from);
    if (label.startsWith('^')) {
      // A footnote reference `[^1]`, or the `[^1]:` that starts a footnote definition.
      const definition = source.charCodeAt(node.to) === 0x3a /* : */ && node.parent?.from === node.from;
      push(node.from, definition ? node.to + 1 : node.to, 'footnote', true);
      return false;
    }
    // A shortcut or collapsed reference is a link only when its label is defined, and
    // then its text IS the label: changing it would unlink it. Undefined, it is plain
    // bracketed text that the bracket rule may convert.
    shortcuts.push({ from: node.from, to: node.to, label: normalizeLabel(label) });
    return true;
  }

  /** `[label]: url "title"` is protected whole; a footnote definition only up to its colon. */
  function enterDefinition(node: SyntaxNode): boolean {
    const label = node.getChild('LinkLabel');
    const colon = node.getChild('LinkMark');
    const labelText = label ? source.slice(label.from + 1, label.to - 1) : '';
    if (labelText.startsWith('^') && label && colon) {
      push(label.from, colon.to, 'footnote', false);
      return false;
    }
    if (label) labels.add(normalizeLabel(labelText));
    push(node.from, node.to, 'reference-definition', false);
    return false;
  }

  function headingTitle(node: SyntaxNode): string {
    let from = node.from;
    let to = node.to;
    for (let child = node.firstChild; child; child = child.nextSibling) {
      if (child.name !== 'HeaderMark') continue;
      if (child.from === node.from) from = child.to;
      else to = Math.min(to, child.from);
    }
    return source.slice(from, to).trim();
  }
}

/** CommonMark label matching: case-insensitive, inner whitespace collapsed. */
function normalizeLabel(label: string): string {
  return label.trim().replace(/\s+/g, ' ').toLowerCase().toUpperCase().toLowerCase();
}
