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

/** What the walk does at a node, by node type id: `WHOLE`'s entry, and a role for the rest. */
const NODE_TYPES = markdownParser.nodeSet.types;
const WHOLE_BY_TYPE: readonly (readonly [RegionKind, boolean] | undefined)[] = NODE_TYPES.map((type) =>
  WHOLE.get(type.name),
);
/** A link or image, a link reference definition, or a heading's level (1–6). */
const LINK = -1;
const DEFINITION = -2;
const ROLE_BY_TYPE: readonly (number | undefined)[] = NODE_TYPES.map((type) => {
  if (type.name === 'Link' || type.name === 'Image') return LINK;
  if (type.name === 'LinkReference') return DEFINITION;
  const heading = HEADING.exec(type.name);
  return heading ? Number(heading[1]) : undefined;
});
/** What a link's child is, by node type id: `LINK_MARK`, `URL_TYPE`, `LINK_LABEL`, or 0. */
const LINK_MARK = 1;
const URL_TYPE = 2;
const LINK_LABEL = 3;
const LINK_CHILD_BY_TYPE: Uint8Array = Uint8Array.from(NODE_TYPES, (type) =>
  type.name === 'LinkMark'
    ? LINK_MARK
    : type.name === 'URL'
      ? URL_TYPE
      : type.name === 'LinkLabel'
        ? LINK_LABEL
        : 0,
);

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

  // The walk `tree.iterate` made (every named node, in document order, children skipped
  // where `enter` returns false), by hand: a cursor and a table by node type, with no
  // name lookup, regular expression or node object per node (issue 18).
  const cursor = tree.cursor();
  let depth = 0;
  for (;;) {
    if (enter() && cursor.firstChild()) {
      depth++;
      continue;
    }
    while (!cursor.nextSibling()) {
      if (!cursor.parent()) {
        for (const link of shortcuts) {
          if (labels.has(link.label)) push(link.from, link.to, 'link-syntax', true);
        }
        return { regions, headings };
      }
      depth--;
    }
  }

  /** Visits the cursor's node; false when its children are to be skipped. */
  function enter(): boolean {
    const id = cursor.type.id;
    const whole = WHOLE_BY_TYPE[id];
    if (whole) {
      push(cursor.from, cursor.to, whole[0], whole[1]);
      return false;
    }
    const role = ROLE_BY_TYPE[id];
    if (role === LINK) return enterLink();
    if (role === DEFINITION) return enterDefinition(cursor.node);
    if (role !== undefined && role > 0 && depth === 1) {
      headings.push({ from: cursor.from + offset, level: role, title: headingTitle(cursor.node) });
    }
    return true;
  }

  /** `[text](url "title")`, `[text][label]`, `[label][]`, `[label]`, and the image forms. */
  function enterLink(): boolean {
    const from = cursor.from;
    const to = cursor.to;
    let openFrom = -1;
    let openTo = -1;
    let closeFrom = -1;
    let hasDestination = false;
    let fullLabel = false;
    if (cursor.firstChild()) {
      do {
        const child = LINK_CHILD_BY_TYPE[cursor.type.id];
        if (child === LINK_MARK) {
          if (openFrom === -1) {
            openFrom = cursor.from;
            openTo = cursor.to;
          }
          if (closeFrom === -1 && source.charCodeAt(cursor.from) === 0x5d /* ] */) closeFrom = cursor.from;
        } else if (child === URL_TYPE) hasDestination = true;
        else if (child === LINK_LABEL && cursor.to - cursor.from > 2) fullLabel = true;
      } while (cursor.nextSibling());
      cursor.parent();
    }
    if (openFrom === -1 || closeFrom === -1) return true;
    if (hasDestination || fullLabel) {
      // The text between the brackets is prose; the rest is syntax.
      push(openFrom, openTo, 'link-syntax', true);
      push(closeFrom, to, 'link-syntax', true);
      return true;
    }
    const label = source.slice(openTo, closeFrom);
    if (label.startsWith('^')) {
      // A footnote reference `[^1]`, or the `[^1]:` that starts a footnote definition.
      const definition = source.charCodeAt(to) === 0x3a /* : */ && cursor.node.parent?.from === from;
      push(from, definition ? to + 1 : to, 'footnote', true);
      return false;
    }
    // A shortcut or collapsed reference is a link only when its label is defined, and
    // then its text IS the label: changing it would unlink it. Undefined, it is plain
    // bracketed text that the bracket rule may convert.
    shortcuts.push({ from, to, label: normalizeLabel(label) });
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
