import { markdown, markdownLanguage } from '@codemirror/lang-markdown';
import { ensureSyntaxTree } from '@codemirror/language';
import { EditorSelection, EditorState, Text } from '@codemirror/state';
import { Wikilink } from '@vmark/sdk/markdown';
import { describe, expect, it } from 'vitest';
import { frontMatterRange } from './front-matter.js';
import { livePreviewDecorations } from './live-preview.js';

/**
 * The state with its whole syntax tree: creating a state parses for 20 ms only, which a loaded
 * machine may not finish in; an update takes the tree the forced parse reached.
 */
function parsed(state: EditorState): EditorState {
  if (ensureSyntaxTree(state, state.doc.length, 10_000) === null) throw new Error('the parse did not finish');
  return state.update({}).state;
}

/** The document as the live preview shows it: hidden ranges left out, bullets drawn. */
function shown(doc: string, cursor: number): string {
  const state = parsed(
    EditorState.create({
      doc,
      selection: EditorSelection.cursor(cursor),
      extensions: [markdown({ base: markdownLanguage, extensions: [Wikilink] })],
    }),
  );
  const cuts: [number, number, string][] = [];
  livePreviewDecorations(state, [{ from: 0, to: doc.length }]).between(0, doc.length, (from, to, value) => {
    if (value.point) cuts.push([from, to, (value.spec as { widget?: unknown }).widget ? '•' : '']);
  });
  let out = '';
  let at = 0;
  for (const [from, to, insert] of cuts.sort((a, b) => a[0] - b[0])) {
    out += doc.slice(at, from) + insert;
    at = to;
  }
  return out + doc.slice(at);
}

const DOC =
  '# Title\n\nSome **bold**, _it_, `code` and ~~gone~~.\n\nA [link](https://x.y "t") and \\*stars\\*.\n\n- item\n';

describe('livePreviewDecorations', () => {
  it('hides the marks of every line the cursor is not on', () => {
    expect(shown(DOC, DOC.length)).toBe(
      'Title\n\nSome bold, it, code and gone.\n\nA link and *stars*.\n\n• item\n',
    );
  });

  it('shows the marks of the line being edited', () => {
    const onBold = DOC.indexOf('bold');
    expect(shown(DOC, onBold).split('\n')[2]).toBe('Some **bold**, _it_, `code` and ~~gone~~.');
    expect(shown(DOC, onBold).split('\n')[0]).toBe('Title');
    expect(shown(DOC, 0).split('\n')[0]).toBe('# Title');
  });

  it('shows a wikilink as its alias or its name, and as written on the line being edited', () => {
    const doc = 'See [[note|the alias]], [[plain]] and [[a#Part]].\n\nx';
    expect(shown(doc, doc.length).split('\n')[0]).toBe('See the alias, plain and a#Part.');
    expect(shown(doc, 0).split('\n')[0]).toBe('See [[note|the alias]], [[plain]] and [[a#Part]].');
  });

  it('leaves fenced code alone', () => {
    const code = '```js\nconst a = `x`;\n```\n\ntext\n';
    expect(shown(code, code.length)).toBe(code);
  });

  it('shows front matter as it is: no heading, no hidden marks', () => {
    const doc = '---\ntitle: *A*\nvmark:\n  id: 0198c0de-0000-7000-8000-00000000000a\n---\n# Body **b**\n';
    const state = parsed(EditorState.create({ doc, extensions: [markdown({ base: markdownLanguage })] }));
    const lines: string[] = [];
    livePreviewDecorations(state, [{ from: 0, to: doc.length }]).between(
      0,
      doc.length,
      (from, _to, value) => {
        const cls = (value.spec as { class?: string }).class;
        if (cls) lines.push(`${state.doc.lineAt(from).number}:${cls}`);
      },
    );
    expect(lines.filter((l) => Number(l.split(':')[0]) <= 5)).toEqual([]);
    expect(shown(doc, doc.length)).toBe(
      '---\ntitle: *A*\nvmark:\n  id: 0198c0de-0000-7000-8000-00000000000a\n---\nBody b\n',
    );
  });
});

describe('frontMatterRange', () => {
  const range = (doc: string) => frontMatterRange(Text.of(doc.split('\n')));

  it('runs from a first-line fence to a later --- or ... line', () => {
    expect(range('---\na: 1\n---\nbody')).toEqual({ from: 0, to: 12 });
    expect(range('---\na: 1\n...\nbody')).toEqual({ from: 0, to: 12 });
  });

  it('is none when unclosed or not first', () => {
    expect(range('---\na: 1\nbody')).toBeNull();
    expect(range('intro\n---\na: 1\n---')).toBeNull();
    expect(range(' ---\na: 1\n---')).toBeNull();
    expect(range('--')).toBeNull();
    expect(range('')).toBeNull();
  });

  it('runs after a byte order mark', () => {
    expect(range('\uFEFF---\na: 1\n---\nbody')).toEqual({ from: 0, to: 13 });
  });

  it('is empty front matter when the second line closes it, as the CJK transforms read it', () => {
    expect(range('---\n---\nbody')).toEqual({ from: 0, to: 7 });
  });

  it('reads past the first 64 KiB for a block that closes later', () => {
    const long = `---\n${'a: 1\n'.repeat(20_000)}---\nbody`;
    expect(range(long)).toEqual({ from: 0, to: long.length - '\nbody'.length });
  });
});
