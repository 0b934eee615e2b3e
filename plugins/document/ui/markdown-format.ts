/*
 * The Markdown formatting commands' edits (ADR 72), pure: a document's text and one selection
 * range in, the changes and the range after them out. The view module (format-commands.ts) runs
 * them on each of the editor's ranges; these know nothing of CodeMirror, so they are tested on
 * strings.
 *
 * Inline marks (bold, italic, code, strikethrough) toggle as Typora and Obsidian do: a selection
 * or cursor inside a marked span loses that span's marks; a selection is wrapped (each line's
 * part, its outer spaces left outside: `** word**` is no emphasis); a cursor in a word wraps the
 * word; a cursor elsewhere gets an empty pair with the cursor between, and a second press takes
 * the empty pair away. What is marked is read from @lezer/markdown's parse of the line, so nested
 * marks (`***both***`) and code spans are told apart as the editor shows them.
 */
import { GFM, parser as commonMark } from '@vmark/sdk/markdown';

/** One replacement in the original text. */
export interface Change {
  readonly from: number;
  readonly to: number;
  readonly insert: string;
}

/** A selection range: `anchor` stays, `head` is where the cursor is. */
export interface Range {
  readonly anchor: number;
  readonly head: number;
}

/** What one command does to one range: the changes (in the original text) and the range after. */
export interface Edit {
  readonly changes: readonly Change[];
  readonly range: Range;
}

export type InlineMark = 'bold' | 'italic' | 'code' | 'strikethrough';

const parser = commonMark.configure(GFM);

const MARKS: Record<InlineMark, { readonly text: string; readonly node: string; readonly markNode: string }> =
  {
    bold: { text: '**', node: 'StrongEmphasis', markNode: 'EmphasisMark' },
    italic: { text: '*', node: 'Emphasis', markNode: 'EmphasisMark' },
    code: { text: '`', node: 'InlineCode', markNode: 'CodeMark' },
    strikethrough: { text: '~~', node: 'Strikethrough', markNode: 'StrikethroughMark' },
  };

const from = (range: Range) => Math.min(range.anchor, range.head);
const to = (range: Range) => Math.max(range.anchor, range.head);

/** Where `pos` lands after `changes` (sorted, not overlapping); `after` puts an insertion at `pos` before it. */
export function mapPos(changes: readonly Change[], pos: number, after = false): number {
  let shift = 0;
  for (const change of changes) {
    if (change.from > pos || (change.from === pos && change.to === pos && !after)) break;
    if (change.to > pos) return change.from + shift + (after ? change.insert.length : 0);
    shift += change.insert.length - (change.to - change.from);
  }
  return pos + shift;
}

/** The line of `text` that holds `pos`: its start and end (before the line break). */
function lineAt(text: string, pos: number): { from: number; to: number } {
  const start = text.lastIndexOf('\n', pos - 1) + 1;
  const end = text.indexOf('\n', pos);
  return { from: start, to: end === -1 ? text.length : end };
}

/** Every line from the one holding `start` to the one holding `end`. */
function linesBetween(text: string, start: number, end: number): { from: number; to: number }[] {
  const lines = [];
  let line = lineAt(text, start);
  for (;;) {
    lines.push(line);
    if (line.to >= end || line.to >= text.length) return lines;
    line = lineAt(text, line.to + 1);
  }
}

interface Span {
  readonly from: number;
  readonly to: number;
  /** The opening and closing marks' ranges. */
  readonly open: { from: number; to: number };
  readonly close: { from: number; to: number };
}

/** The spans of `mark` on the line (positions in `text`), innermost last. */
function spansOnLine(text: string, line: { from: number; to: number }, mark: InlineMark): Span[] {
  const { node, markNode } = MARKS[mark];
  const spans: Span[] = [];
  const tree = parser.parse(text.slice(line.from, line.to));
  tree.iterate({
    enter: (ref) => {
      if (ref.name !== node) return;
      const marks = ref.node.getChildren(markNode);
      const open = marks[0];
      const close = marks[marks.length - 1];
      if (open === undefined || close === undefined || marks.length < 2) return;
      const at = (n: { from: number; to: number }) => ({ from: line.from + n.from, to: line.from + n.to });
      spans.push({ from: line.from + ref.from, to: line.from + ref.to, open: at(open), close: at(close) });
    },
  });
  return spans;
}

/** Bold, italic, code or strikethrough on or off, as the person's selection or cursor asks. */
export function toggleInline(text: string, range: Range, mark: InlineMark): Edit {
  const start = from(range);
  const end = to(range);
  const line = lineAt(text, start);
  if (end <= line.to) {
    const enclosing = spansOnLine(text, line, mark)
      .filter((span) => span.from <= start && end <= span.to)
      .pop();
    if (enclosing !== undefined) return unwrap(range, enclosing);
  }
  const marker = MARKS[mark].text;
  if (start === end) return atCursor(text, start, marker);
  return wrapLines(text, range, marker);
}

/** Takes a span's marks away; the selection keeps to the same text. */
function unwrap(range: Range, span: Span): Edit {
  const changes = [
    { from: span.open.from, to: span.open.to, insert: '' },
    { from: span.close.from, to: span.close.to, insert: '' },
  ];
  const clamp = (pos: number) => Math.min(Math.max(pos, span.open.to), span.close.from);
  const map = (pos: number) => mapPos(changes, clamp(pos));
  return { changes, range: { anchor: map(range.anchor), head: map(range.head) } };
}

/** An empty pair goes; a word is wrapped; elsewhere an empty pair comes, the cursor between. */
function atCursor(text: string, pos: number, marker: string): Edit {
  const n = marker.length;
  if (text.slice(pos - n, pos) === marker && text.slice(pos, pos + n) === marker) {
    return {
      changes: [{ from: pos - n, to: pos + n, insert: '' }],
      range: { anchor: pos - n, head: pos - n },
    };
  }
  const word = wordAt(text, pos);
  if (word === null) {
    const at = pos + n;
    return { changes: [{ from: pos, to: pos, insert: marker + marker }], range: { anchor: at, head: at } };
  }
  const changes = [
    { from: word.from, to: word.from, insert: marker },
    { from: word.to, to: word.to, insert: marker },
  ];
  return { changes, range: { anchor: pos + n, head: pos + n } };
}

const segmenter = new Intl.Segmenter(undefined, { granularity: 'word' });

/** The word the cursor is in or at the edge of (letters, digits; CJK split as the platform's dictionary does). */
export function wordAt(text: string, pos: number): { from: number; to: number } | null {
  const line = lineAt(text, pos);
  const offset = pos - line.from;
  let before: { from: number; to: number } | null = null;
  for (const segment of segmenter.segment(text.slice(line.from, line.to))) {
    if (!segment.isWordLike) continue;
    const span = { from: segment.index, to: segment.index + segment.segment.length };
    // Inside a word, or at its start: that word; at its end only, the word before.
    if (span.from <= offset && offset < span.to)
      return { from: line.from + span.from, to: line.from + span.to };
    if (span.to === offset) before = { from: line.from + span.from, to: line.from + span.to };
  }
  return before;
}

/** Wraps each selected line's part (outer spaces outside the marks); blank parts are left alone. */
function wrapLines(text: string, range: Range, marker: string): Edit {
  const start = from(range);
  const end = to(range);
  const changes: Change[] = [];
  let first: number | undefined;
  let last = end;
  for (const line of linesBetween(text, start, end)) {
    const partFrom = Math.max(line.from, start);
    const partTo = Math.min(line.to, end);
    const part = text.slice(partFrom, partTo);
    const body = part.trim();
    if (body === '') continue;
    const bodyFrom = partFrom + (part.length - part.trimStart().length);
    const bodyTo = bodyFrom + body.length;
    changes.push(
      { from: bodyFrom, to: bodyFrom, insert: marker },
      { from: bodyTo, to: bodyTo, insert: marker },
    );
    first ??= bodyFrom;
    last = bodyTo;
  }
  if (first === undefined) return { changes: [], range };
  // The selection keeps to the text, inside the marks.
  const newFrom = mapPos(changes, first, true);
  const newTo = mapPos(changes, last);
  const forward = range.head >= range.anchor;
  return { changes, range: forward ? { anchor: newFrom, head: newTo } : { anchor: newTo, head: newFrom } };
}

/**
 * A link: the selection becomes the link's text with the cursor where its address goes; a cursor
 * in a word links the word; elsewhere `[]()` with the cursor in the brackets. Inside a link, the
 * link's marks and address go and its text stays.
 */
export function toggleLink(text: string, range: Range): Edit {
  const start = from(range);
  const end = to(range);
  const line = lineAt(text, start);
  if (end <= line.to) {
    const link = linkAround(text, line, start, end);
    if (link !== null) {
      const changes = [
        { from: link.from, to: link.textFrom, insert: '' },
        { from: link.textTo, to: link.to, insert: '' },
      ];
      const clamp = (pos: number) => Math.min(Math.max(pos, link.textFrom), link.textTo);
      const map = (pos: number) => mapPos(changes, clamp(pos));
      return { changes, range: { anchor: map(range.anchor), head: map(range.head) } };
    }
  }
  const target = start === end ? wordAt(text, start) : { from: start, to: end };
  if (target === null) {
    return {
      changes: [{ from: start, to: start, insert: '[]()' }],
      range: { anchor: start + 1, head: start + 1 },
    };
  }
  const changes = [
    { from: target.from, to: target.from, insert: '[' },
    { from: target.to, to: target.to, insert: ']()' },
  ];
  const cursor = target.to + 3;
  return { changes, range: { anchor: cursor, head: cursor } };
}

function linkAround(
  text: string,
  line: { from: number; to: number },
  start: number,
  end: number,
): { from: number; to: number; textFrom: number; textTo: number } | null {
  let found = null;
  parser.parse(text.slice(line.from, line.to)).iterate({
    enter: (ref) => {
      if (ref.name !== 'Link') return;
      const marks = ref.node.getChildren('LinkMark');
      const [open, close] = marks;
      const linkFrom = line.from + ref.from;
      const linkTo = line.from + ref.to;
      if (open === undefined || close === undefined || start < linkFrom || end > linkTo) return;
      found = { from: linkFrom, to: linkTo, textFrom: line.from + open.to, textTo: line.from + close.from };
    },
  });
  return found;
}

export type BlockFormat =
  | { readonly type: 'heading'; readonly level: 1 | 2 | 3 | 4 | 5 | 6 }
  | { readonly type: 'paragraph' }
  | { readonly type: 'bullet' }
  | { readonly type: 'numbered' }
  | { readonly type: 'task' }
  | { readonly type: 'quote' };

const HEADING = /^ {0,3}(#{1,6})(?:[ \t]+|$)/;
/** A list item's indent, its marker (and a task's box), and the space after them. */
const LIST_ITEM = /^(\s*)([-*+]|\d{1,9}[.)])([ \t]+\[[ xX]\])?(?:[ \t]+|$)/;
const QUOTE = /^ {0,3}> ?/;

interface LineEdit {
  readonly line: { from: number; to: number };
  /** How many characters of the line's start are replaced, and by what. */
  readonly remove: number;
  readonly insert: string;
}

/**
 * A heading level, a paragraph, a list, a task list or a quote on each selected line (blank lines
 * are left alone, except inside a quote). When every line already has the format, it goes: a
 * second press undoes the first. A heading level replaces another; a list kind replaces another.
 */
export function toggleBlock(text: string, range: Range, format: BlockFormat): Edit {
  const lines = linesBetween(text, from(range), to(range));
  const content = lines.filter((line) => text.slice(line.from, line.to).trim() !== '');
  const all = (test: (body: string) => boolean) =>
    content.length > 0 && content.every((line) => test(text.slice(line.from, line.to)));
  const edits: LineEdit[] = [];
  const lineText = (line: { from: number; to: number }) => text.slice(line.from, line.to);
  switch (format.type) {
    case 'heading':
    case 'paragraph': {
      const level = format.type === 'heading' ? format.level : 0;
      const off = level === 0 || all((body) => HEADING.exec(body)?.[1]?.length === level);
      const prefix = off ? '' : `${'#'.repeat(level)} `;
      for (const line of content) {
        const found = HEADING.exec(lineText(line));
        edits.push({ line, remove: found?.[0].length ?? 0, insert: prefix });
      }
      break;
    }
    case 'bullet':
    case 'numbered':
    case 'task': {
      const kind = (body: string) => {
        const item = LIST_ITEM.exec(body);
        if (item === null) return null;
        if (item[3] !== undefined) return 'task';
        return /\d/.test(item[2] ?? '') ? 'numbered' : 'bullet';
      };
      const off = all((body) => kind(body) === format.type);
      let number = 1;
      for (const line of content) {
        const body = lineText(line);
        const item = LIST_ITEM.exec(body);
        const indent = item?.[1] ?? /^\s*/.exec(body)?.[0] ?? '';
        const box = item?.[3] !== undefined && format.type === 'task' ? item[3].trim() : '[ ]';
        const marker =
          format.type === 'bullet' ? '- ' : format.type === 'numbered' ? `${number++}. ` : `- ${box} `;
        edits.push({
          line,
          remove: item?.[0].length ?? indent.length,
          insert: off ? indent : indent + marker,
        });
      }
      break;
    }
    case 'quote': {
      const off = all((body) => QUOTE.test(body));
      for (const line of lines) {
        const body = lineText(line);
        const found = QUOTE.exec(body);
        if (off) edits.push({ line, remove: found?.[0].length ?? 0, insert: '' });
        else edits.push({ line, remove: 0, insert: body === '' ? '>' : '> ' });
      }
      break;
    }
  }
  const changes = edits
    .map(({ line, remove, insert }) => ({ from: line.from, to: line.from + remove, insert }))
    .filter((change) => change.to > change.from || change.insert !== '');
  const map = (pos: number) => mapPos(changes, pos, true);
  return { changes, range: { anchor: map(range.anchor), head: map(range.head) } };
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/**
 * A fenced code block around the selected lines; on a blank line, an empty block with the cursor
 * inside. When the selected lines are a fenced block (the fences selected, or just inside them),
 * the fences go.
 */
export function toggleCodeBlock(text: string, range: Range): Edit {
  const lines = linesBetween(text, from(range), to(range));
  const first = lines[0]!;
  const last = lines[lines.length - 1]!;
  const isFence = (line: { from: number; to: number } | null) =>
    line !== null && FENCE.test(text.slice(line.from, line.to));
  const before = first.from === 0 ? null : lineAt(text, first.from - 1);
  const after = last.to >= text.length ? null : lineAt(text, last.to + 1);
  let fences: [{ from: number; to: number }, { from: number; to: number }] | null = null;
  if (lines.length >= 2 && isFence(first) && isFence(last)) fences = [first, last];
  else if (isFence(before) && isFence(after)) fences = [before!, after!];
  if (fences !== null) {
    const [open, close] = fences;
    // Each fence line goes with its line break (the closing one with the break before it at the end of the text).
    const changes = [
      { from: open.from, to: open.to + 1, insert: '' },
      close.to >= text.length
        ? { from: close.from - 1, to: close.to, insert: '' }
        : { from: close.from, to: close.to + 1, insert: '' },
    ];
    const clamp = (pos: number) =>
      Math.min(Math.max(pos, open.to + 1), Math.max(close.from - 1, open.to + 1));
    const map = (pos: number) => mapPos(changes, clamp(pos));
    return { changes, range: { anchor: map(range.anchor), head: map(range.head) } };
  }
  const blank = lines.length === 1 && text.slice(first.from, first.to).trim() === '';
  if (blank) {
    const cursor = first.from + 4;
    return {
      changes: [{ from: first.from, to: first.to, insert: '```\n\n```' }],
      range: { anchor: cursor, head: cursor },
    };
  }
  const changes = [
    { from: first.from, to: first.from, insert: '```\n' },
    { from: last.to, to: last.to, insert: '\n```' },
  ];
  // Inside the fences: the start after the opening one, the end before the closing one.
  const map = (pos: number) => mapPos(changes, pos, pos < last.to);
  return { changes, range: { anchor: map(range.anchor), head: map(range.head) } };
}
