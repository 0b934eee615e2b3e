import { markdown, markdownLanguage } from '@codemirror/lang-markdown';
import { EditorSelection, EditorState } from '@codemirror/state';
import { describe, expect, it } from 'vitest';
import { livePreviewDecorations } from './live-preview.js';

/** The document as the live preview shows it: hidden ranges left out, bullets drawn. */
function shown(doc: string, cursor: number): string {
  const state = EditorState.create({
    doc,
    selection: EditorSelection.cursor(cursor),
    extensions: [markdown({ base: markdownLanguage })],
  });
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

  it('leaves fenced code alone', () => {
    const code = '```js\nconst a = `x`;\n```\n\ntext\n';
    expect(shown(code, code.length)).toBe(code);
  });
});
