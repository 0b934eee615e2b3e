import { markdown, markdownLanguage } from '@codemirror/lang-markdown';
import { ensureSyntaxTree } from '@codemirror/language';
import { EditorSelection, EditorState, Text } from '@codemirror/state';
import type { Decoration, WidgetType } from '@codemirror/view';
import { describe, expect, it } from 'vitest';
import { livePreviewDecorations } from '../live-preview.js';
import { fenceSource, mathSource, richBlock } from './blocks.js';
import { calloutHead } from './callouts.js';
import { blockDecorations } from './rich-decorations.js';
import { FootnoteSyntax, MathSyntax } from './syntax.js';
import { alignments, tableFromSource } from './table-model.js';
import { toggleTask } from './tasks.js';
import {
  CalloutTitleWidget,
  FootnoteWidget,
  MathWidget,
  MermaidWidget,
  TableWidget,
  TaskWidget,
} from './widgets.js';
import { siblingUrl } from './lazy.js';

function state(doc: string, cursor: number): EditorState {
  const created = EditorState.create({
    doc,
    selection: EditorSelection.cursor(cursor),
    extensions: [markdown({ base: markdownLanguage, extensions: [MathSyntax, FootnoteSyntax] })],
  });
  if (ensureSyntaxTree(created, doc.length, 10_000) === null) throw new Error('the parse did not finish');
  return created.update({}).state;
}

/** A widget as a token of text, so that a test reads what Live mode draws. */
function token(widget: WidgetType): string {
  if (widget instanceof MathWidget) return widget.display ? `⟦${widget.tex}⟧` : `⟨${widget.tex}⟩`;
  if (widget instanceof TaskWidget) return widget.checked ? '☑' : '☐';
  if (widget instanceof FootnoteWidget) return widget.definition ? `^${widget.label}: ` : `^${widget.label}`;
  if (widget instanceof CalloutTitleWidget)
    return `«${widget.style.kind}${widget.title ? ` ${widget.title}` : ''}» `;
  if (widget instanceof TableWidget) return `[table ${widget.source.split('\n').length} lines]`;
  if (widget instanceof MermaidWidget) return `[mermaid ${widget.source.split('\n').length} lines]`;
  return '•';
}

/** The document as Live mode shows it: blocks and inline widgets as tokens, hidden ranges gone. */
function shown(doc: string, cursor = 0): string {
  const s = state(doc, cursor);
  const cuts: [number, number, string][] = [];
  const collect = (from: number, to: number, value: Decoration) => {
    if (!value.point || (value.spec as { class?: string }).class !== undefined) return;
    const widget = (value.spec as { widget?: WidgetType }).widget;
    cuts.push([from, to, widget ? token(widget) : '']);
  };
  livePreviewDecorations(s, [{ from: 0, to: doc.length }]).between(0, doc.length, collect);
  blockDecorations(s, { from: 0, to: doc.length }).between(0, doc.length, collect);
  let out = '';
  let at = 0;
  for (const [from, to, insert] of cuts.sort((a, b) => a[0] - b[0] || b[1] - a[1])) {
    if (from < at) continue;
    out += doc.slice(at, from) + insert;
    at = to;
  }
  return out + doc.slice(at);
}

/** The classes of each line's line decorations, by line number. */
function lineClasses(doc: string, cursor = 0): Map<number, string> {
  const s = state(doc, cursor);
  const lines = new Map<number, string>();
  livePreviewDecorations(s, [{ from: 0, to: doc.length }]).between(0, doc.length, (from, to, value) => {
    const spec = value.spec as { class?: string; widget?: unknown };
    if (spec.widget === undefined && spec.class !== undefined && from === to) {
      const cls = spec.class;
      const n = s.doc.lineAt(from).number;
      lines.set(n, `${lines.get(n) ?? ''} ${cls}`.trim());
    }
  });
  return lines;
}

const NOTE = [
  '# T', // 1
  '', // 2
  '| a | b |', // 3
  '| - | -: |', // 4
  '| 1 | $x$ |', // 5
  '', // 6
  'Inline $e^x$ here[^n].', // 7
  '', // 8
  '$$', // 9
  'y^2', // 10
  '$$', // 11
  '', // 12
  '- [ ] todo', // 13
  '- [x] done', // 14
  '', // 15
  '> [!tip] Be kind', // 16
  '> body', // 17
  '', // 18
  '[^n]: The note.', // 19
  '', // 20
  '```mermaid', // 21
  'graph TD', // 22
  '```', // 23
  '',
].join('\n');

describe('Live mode’s rich rendering', () => {
  it('draws every block and inline element when the cursor is elsewhere', () => {
    expect(shown(NOTE)).toBe(
      [
        '# T',
        '',
        '[table 3 lines]',
        '',
        'Inline ⟨e^x⟩ here^n.',
        '',
        '⟦y^2⟧',
        '',
        '☐ todo',
        '☑ done',
        '',
        '«tip» Be kind',
        'body',
        '',
        '^n: The note.',
        '',
        '[mermaid 1 lines]',
        '',
      ].join('\n'),
    );
  });

  it('shows the source of a table, a math block and a diagram the cursor is in', () => {
    for (const line of [4, 10, 22]) {
      const cursor = Text.of(NOTE.split('\n')).line(line).from;
      const out = shown(NOTE, cursor);
      const source = NOTE.split('\n')[line - 1]!;
      expect(out).toContain(source);
    }
    expect(shown(NOTE, NOTE.indexOf('| 1 |'))).toContain('| a | b |\n| - | -: |\n| 1 | $x$ |');
  });

  it('shows the Markdown of the line being edited: task, inline math, callout head, footnote', () => {
    const doc = Text.of(NOTE.split('\n'));
    for (const line of [7, 13, 16, 19]) {
      const text = NOTE.split('\n')[line - 1]!;
      expect(shown(NOTE, doc.line(line).from).split('\n')).toContain(text);
    }
  });

  it('colours a callout’s lines by its type, and a plain quote as a quote', () => {
    const classes = lineClasses(NOTE);
    expect(classes.get(16)).toContain('cm-lp-callout cm-lp-callout-tip cm-lp-callout-head');
    expect(classes.get(17)).toContain('cm-lp-callout-last');
    expect(lineClasses('> plain\n').get(1)).toBe('cm-lp-quote');
    expect(classes.get(19)).toContain('cm-lp-footnote');
  });

  it('leaves a table inside a list or a quote as text', () => {
    const doc = '- item\n\n  | a |\n  | - |\n  | 1 |\n\n> | a |\n> | - |\n';
    expect(shown(doc, doc.length)).not.toContain('[table');
  });

  it('draws only the blocks in the window it is given', () => {
    const s = state(NOTE, 0);
    const window = { from: NOTE.indexOf('$$'), to: NOTE.length };
    const drawn: string[] = [];
    blockDecorations(s, window).between(0, NOTE.length, (_f, _t, value) => {
      drawn.push(token((value.spec as { widget: WidgetType }).widget));
    });
    expect(drawn).toEqual(['⟦y^2⟧', '[mermaid 1 lines]']);
  });
});

describe('the parts', () => {
  it('reads a table’s cells, empty ones included, with their alignments and offsets', () => {
    const source = '| a | b | c |\n|:-|:-:|-:|\n| 1 |  | *3* |';
    const table = tableFromSource(source)!;
    expect(table.align).toEqual(['left', 'center', 'right']);
    expect(table.header.map((c) => c.text)).toEqual(['a', 'b', 'c']);
    expect(table.rows[0]!.map((c) => c.text)).toEqual(['1', '', '*3*']);
    for (const cell of [...table.header, ...table.rows[0]!])
      expect(source.slice(cell.offset, cell.offset + cell.text.length)).toBe(cell.text);
    expect(alignments('--- | :--')).toEqual([null, 'left']);
    expect(tableFromSource('not a table')).toBeNull();
  });

  it('reads callout heads: types, aliases, folding marks, titles', () => {
    expect(calloutHead('> [!NOTE]')).toMatchObject({ type: 'note', title: '', style: { kind: 'note' } });
    expect(calloutHead('> [!faq]- Why?')).toMatchObject({
      type: 'faq',
      title: 'Why?',
      style: { kind: 'question' },
    });
    expect(calloutHead('> [!custom] Mine')).toMatchObject({ style: { kind: 'note' }, title: 'Mine' });
    expect(calloutHead('> [!warning] X')!.prefixEnd).toBe('> [!warning] '.length);
    expect(calloutHead('> plain [!note]')).toBeNull();
  });

  it('toggles a task marker, and nothing else', () => {
    const doc = Text.of(['- [ ] a', '- [X] b']);
    expect(toggleTask(doc, 2)).toEqual({ from: 3, to: 4, insert: 'x' });
    expect(toggleTask(doc, 10)).toEqual({ from: 11, to: 12, insert: ' ' });
    expect(toggleTask(doc, 0)).toBeNull();
  });

  it('reads the sources of math blocks and fences, closed or not', () => {
    const doc = '$$\na\n$$\n\n```mermaid\ngraph\n```\n\n$$\nopen';
    const s = state(doc, doc.length);
    const blocks: string[] = [];
    for (let node = ensureSyntaxTree(s, doc.length)!.topNode.firstChild; node; node = node.nextSibling) {
      if (richBlock(s, node)?.kind === 'math') blocks.push(mathSource(s, node));
      if (richBlock(s, node)?.kind === 'mermaid') blocks.push(fenceSource(s, node));
    }
    expect(blocks).toEqual(['a', 'graph', 'open']);
  });

  it('keeps the page token on a lazy module’s URL', () => {
    expect(
      siblingUrl('rich-math.js', 'http://127.0.0.1:1/plugins/document/ui/dist/markdown-view.js?token=a%2Bb'),
    ).toBe('http://127.0.0.1:1/plugins/document/ui/dist/rich-math.js?token=a%2Bb');
  });
});
