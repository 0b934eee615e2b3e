import { markdown, markdownLanguage } from '@codemirror/lang-markdown';
import { ensureSyntaxTree } from '@codemirror/language';
import { EditorState } from '@codemirror/state';
import { Wikilink } from '@vmark/sdk/markdown';
import { describe, expect, it } from 'vitest';
import { linkAt } from './links.js';

/** The link at the `¦` of `marked` (the mark taken out), as the view reads it. */
function at(marked: string): ReturnType<typeof linkAt> {
  const pos = marked.indexOf('¦');
  const doc = marked.slice(0, pos) + marked.slice(pos + 1);
  const state = EditorState.create({
    doc,
    extensions: [markdown({ base: markdownLanguage, extensions: [Wikilink] })],
  });
  if (ensureSyntaxTree(state, doc.length, 10_000) === null) throw new Error('the parse did not finish');
  const link = linkAt(state, pos);
  if (link === null) return null;
  const { from: _from, to: _to, ...rest } = link;
  return rest as ReturnType<typeof linkAt>;
}

describe('the link under the pointer', () => {
  it('reads each wikilink form', () => {
    expect(at('A [[no¦te]] b')).toEqual({ kind: 'vault', form: 'wikilink', target: 'note', heading: null });
    expect(at('[[note#Pa¦rt two]]')).toEqual({
      kind: 'vault',
      form: 'wikilink',
      target: 'note',
      heading: 'Part two',
    });
    expect(at('[[note|Al¦ias]]')).toEqual({ kind: 'vault', form: 'wikilink', target: 'note', heading: null });
    expect(at('![[pic¦.png]]')).toEqual({ kind: 'vault', form: 'embed', target: 'pic.png', heading: null });
  });

  it('reads a Markdown link by its text or its address, percent-decoded, with its heading', () => {
    expect(at('[te¦xt](notes/a%20b.md#Some%20part)')).toEqual({
      kind: 'vault',
      form: 'markdown',
      target: 'notes/a b.md',
      heading: 'Some part',
    });
    expect(at('[t](<notes/a ¦b.md>)')).toMatchObject({ target: 'notes/a b.md' });
  });

  it('tells web links, other schemes and no link apart', () => {
    expect(at('[w¦eb](https://example.com/x)')).toEqual({ kind: 'external', url: 'https://example.com/x' });
    expect(at('<https://exa¦mple.com>')).toEqual({ kind: 'external', url: 'https://example.com' });
    expect(at('see https://exa¦mple.com/a here')).toEqual({ kind: 'external', url: 'https://example.com/a' });
    expect(at('[x¦](javascript:alert(1))')).toMatchObject({ kind: 'refused' });
    expect(at('[x¦](file:///etc/passwd)')).toMatchObject({ kind: 'refused' });
    expect(at('[x¦](//host/path)')).toMatchObject({ kind: 'refused' });
    expect(at('plain te¦xt')).toBeNull();
    expect(at('`[[in¦ code]]`')).toBeNull();
  });
});
