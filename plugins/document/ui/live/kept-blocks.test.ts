import { markdown, markdownLanguage } from '@codemirror/lang-markdown';
import { ensureSyntaxTree } from '@codemirror/language';
import { EditorSelection, EditorState, RangeSet, type TransactionSpec } from '@codemirror/state';
import { type DecorationSet, EditorView, type WidgetType } from '@codemirror/view';
import { Wikilink } from '@vmark/sdk/markdown';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { livePreviewAfter, livePreviewDecorations } from '../live-preview.js';
import { LongParagraphs } from '../long-paragraphs.js';
import { keepsDrawnBlocks } from './kept-blocks.js';
import { blockDecorations, richBlocks } from './rich-decorations.js';
import { FootnoteSyntax, MathSyntax } from './syntax.js';
import { MathWidget, MermaidWidget, TableWidget } from './widgets.js';

/** The page's parser (markdown-view.ts), with Live mode's block field. */
const extensions = [
  markdown({ base: markdownLanguage, extensions: [MathSyntax, FootnoteSyntax, Wikilink, LongParagraphs] }),
  richBlocks,
];

/** A note parsed whole, as the page's is once it has been open a moment. */
function stateOf(doc: string, cursor: number): EditorState {
  const created = EditorState.create({ doc, selection: EditorSelection.cursor(cursor), extensions });
  if (ensureSyntaxTree(created, doc.length, 10_000) === null) throw new Error('the parse did not finish');
  return created.update({}).state;
}

function source(widget: WidgetType): string {
  if (widget instanceof TableWidget) return `table:${widget.source}`;
  if (widget instanceof MathWidget) return `math:${widget.tex}`;
  if (widget instanceof MermaidWidget) return `mermaid:${widget.source}`;
  return 'other';
}

/** A decoration set as the text of its ranges: where each block is and what it draws. */
function listed(set: DecorationSet, length: number): string[] {
  const out: string[] = [];
  set.between(0, length, (from, to, value) => {
    out.push(`${from}-${to} ${source((value.spec as { widget: WidgetType }).widget)}`);
  });
  return out;
}

/** Every decoration of a set, as text: where, and what (its class, its widget's source). */
function listedAll(set: DecorationSet, length: number): string[] {
  const out: string[] = [];
  set.between(0, length, (from, to, value) => {
    const spec = value.spec as { class?: string; widget?: WidgetType };
    out.push(`${from}-${to} ${spec.class ?? ''} ${spec.widget ? source(spec.widget) : ''}`);
  });
  return out;
}

/** What the field holds now, and what drawing the whole note afresh gives. */
function fieldAndFresh(state: EditorState): { field: string[]; fresh: string[] } {
  const [set] = state.facet(EditorView.decorations) as DecorationSet[];
  const length = state.doc.length;
  return {
    field: listed(set!, length),
    fresh: listed(blockDecorations(state, { from: 0, to: length }), length),
  };
}

const BLOCKS = [
  'A paragraph with $x$ in it.',
  'Two lines\nof a paragraph.',
  '| a | b |\n| - | - |\n| 1 | $y$ |',
  '| h |\n| --- |\n| only |',
  '$$\nx^2\n$$',
  '$$\nunclosed',
  '```mermaid\ngraph TD\n```',
  '```\nmermaid\n```',
  '```js\ncode()\n```',
  ' ```js\n code()\n ```',
  '  An indented paragraph, $z$.',
  '# Heading',
  'Setext\n===',
  '- item\n- [ ] task',
  '> quote\n> more',
  '> | in | quote |\n> | -- | -- |',
  '[^n]: A footnote.',
  '',
];

/** Bits typed into a note: the ones that make, end or merge blocks, and plain letters. */
const TYPED = [
  'a',
  'b',
  'mermaid',
  ' ',
  '\n',
  '\n\n',
  '|',
  '| c |',
  '$',
  '$$',
  '`',
  '```',
  '-',
  '=',
  '===',
  '>',
  '#',
  '- ',
];

const note = fc
  .tuple(
    // Front matter, shown as it is: what is inside it is not drawn.
    fc.constantFrom('', '---\ntitle: $x$\n---\n', '---\n| a |\n'),
    fc.array(fc.tuple(fc.constantFrom(...BLOCKS), fc.constantFrom('\n', '\n\n', '\n\n\n')), {
      minLength: 1,
      maxLength: 12,
    }),
  )
  .map(([front, parts]) => front + parts.map(([block, gap]) => block + gap).join(''));

type Step =
  | { kind: 'edit' | 'write'; at: number; remove: number; insert: string }
  | { kind: 'jump'; at: number; remove: number; insert: string; to: number }
  | { kind: 'move'; at: number }
  | { kind: 'select'; at: number; span: number };

/**
 * One step: an edit at a place (a fraction of the note), typed there, written from elsewhere (an
 * AI's change: the selection stays where it was), or made at the cursor by a command that then puts
 * the cursor elsewhere; a cursor moved there; or a range selected.
 */
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({
    kind: fc.constantFrom('edit' as const, 'write' as const),
    at: fc.double({ min: 0, max: 1, noNaN: true }),
    remove: fc.nat({ max: 3 }),
    insert: fc.constantFrom(...TYPED, ''),
  }),
  fc.record({
    kind: fc.constant('jump' as const),
    at: fc.double({ min: 0, max: 1, noNaN: true }),
    remove: fc.nat({ max: 3 }),
    insert: fc.constantFrom(...TYPED, ''),
    to: fc.double({ min: 0, max: 1, noNaN: true }),
  }),
  fc.record({ kind: fc.constant('move' as const), at: fc.double({ min: 0, max: 1, noNaN: true }) }),
  fc.record({
    kind: fc.constant('select' as const),
    at: fc.double({ min: 0, max: 1, noNaN: true }),
    span: fc.nat({ max: 40 }),
  }),
);

function specOf(state: EditorState, s: Step): TransactionSpec {
  const length = state.doc.length;
  const at = Math.min(length, Math.floor(s.at * (length + 1)));
  if (s.kind === 'move') return { selection: EditorSelection.cursor(at) };
  if (s.kind === 'select') return { selection: EditorSelection.range(at, Math.min(length, at + s.span)) };
  // A command edits at the cursor.
  const from = s.kind === 'jump' ? state.selection.main.head : at;
  const changes = { from, to: Math.min(length, from + s.remove), insert: s.insert };
  if (s.kind === 'write') return { changes };
  const after = length - (changes.to - changes.from) + s.insert.length;
  // Typed: the cursor after what was typed; a command's: anywhere in the new text.
  const cursor = s.kind === 'jump' ? Math.floor(s.to * (after + 1)) : from + s.insert.length;
  return { changes, selection: EditorSelection.cursor(Math.min(after, cursor)) };
}

describe('the drawn blocks kept through a change (ADR 110)', () => {
  it('are what drawing the whole note afresh gives, after any edit or selection', () => {
    let kept = 0;
    let steps = 0;
    fc.assert(
      fc.property(note, fc.nat(), fc.array(step, { minLength: 1, maxLength: 15 }), (doc, cursor, steps_) => {
        let state = stateOf(doc, cursor % (doc.length + 1));
        for (const s of steps_) {
          const tr = state.update(specOf(state, s));
          state = tr.state;
          if (keepsDrawnBlocks(tr)) kept++;
          steps++;
          const { field, fresh } = fieldAndFresh(state);
          expect(field).toEqual(fresh);
        }
      }),
      { numRuns: 600 },
    );
    // The property is about the kept ones: enough of them were tried.
    expect(kept).toBeGreaterThan(steps / 10);
  });

  it('redraw the live preview in the block of a change as drawing its visible ranges afresh does', () => {
    let redrawn = 0;
    fc.assert(
      fc.property(
        note,
        fc.nat(),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.array(step, { minLength: 1, maxLength: 15 }),
        (doc, cursor, start, end, steps_) => {
          let state = stateOf(doc, cursor % (doc.length + 1));
          // Some part of the note on screen: the visible ranges move with the text, as in the view.
          const [a, b] = [start, end].map((f) => Math.floor(f * doc.length)).sort((x, y) => x - y);
          let visible = [{ from: a!, to: b! }];
          let decorations = livePreviewDecorations(state, visible);
          for (const s of steps_) {
            const tr = state.update(specOf(state, s));
            state = tr.state;
            visible = visible.map((r) => ({
              from: tr.changes.mapPos(r.from, -1),
              to: tr.changes.mapPos(r.to, 1),
            }));
            const fresh = livePreviewDecorations(state, visible);
            const kept = livePreviewAfter(tr, visible, decorations);
            if (kept !== null) {
              redrawn++;
              expect(listedAll(kept, state.doc.length)).toEqual(listedAll(fresh, state.doc.length));
              expect(RangeSet.eq([kept], [fresh])).toBe(true);
            }
            decorations = kept ?? fresh;
          }
        },
      ),
      { numRuns: 600 },
    );
    // The property is about the redrawn ones: enough of them were tried.
    expect(redrawn).toBeGreaterThan(50);
  });

  it('keeps the blocks through a keystroke in a paragraph between two tables, moved by it', () => {
    const doc = '| a |\n| - |\n| 1 |\n\nSome text\n\n| b |\n| - |\n| 2 |\n';
    const at = doc.indexOf('text') + 4;
    const state = stateOf(doc, at);
    const tr = state.update({
      changes: { from: at, insert: '!' },
      selection: EditorSelection.cursor(at + 1),
    });
    expect(keepsDrawnBlocks(tr)).toBe(true);
    expect(fieldAndFresh(tr.state).field).toEqual([
      '0-17 table:| a |\n| - |\n| 1 |',
      `${doc.indexOf('| b') + 1}-${doc.length} table:| b |\n| - |\n| 2 |`,
    ]);
  });

  it('draws again when the keystroke makes, ends or enters a block', () => {
    const doc = 'Text\n\n| b |\n| - |\n| 2 |\n\n$$\nx\n$$\n';
    const typed = (from: number, insert: string, into = doc) =>
      keepsDrawnBlocks(
        stateOf(into, from).update({
          changes: { from, insert },
          selection: EditorSelection.cursor(from + insert.length),
        }),
      );
    // A delimiter row under a line of cells: the paragraph becomes a table.
    expect(typed(5, '\n| - |', '| a |\n\nText\n')).toBe(false);
    // A setext underline: the paragraph becomes a heading, the table after it is kept but its neighbour is not.
    expect(typed(4, '\n===')).toBe(false);
    // A fence opened in the paragraph runs over the blocks after it.
    expect(typed(0, '```\n')).toBe(false);
    // Typed into the table: its source shows, and it changed.
    expect(typed(doc.indexOf('2'), '3')).toBe(false);
    // The cursor moved into the math block: it shows its source.
    const state = stateOf(doc, 0);
    expect(
      keepsDrawnBlocks(state.update({ selection: EditorSelection.cursor(doc.indexOf('\nx\n') + 1) })),
    ).toBe(false);
    // Moved within the paragraph: nothing changes.
    expect(keepsDrawnBlocks(state.update({ selection: EditorSelection.cursor(2) }))).toBe(true);
  });
});
