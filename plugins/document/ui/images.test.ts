import { markdown, markdownLanguage } from '@codemirror/lang-markdown';
import { ensureSyntaxTree } from '@codemirror/language';
import { EditorSelection, EditorState } from '@codemirror/state';
import type { ImageTarget, KindViewTab, TextViewApi } from '@vmark/sdk';
import { describe, expect, it } from 'vitest';
import { imageDecorations, imageHost, imageSource } from './images.js';

const tab: KindViewTab = { id: 't', title: 'note.md', filePath: '/vault/notes/note.md', kind: 'markdown' };

function api(settings: Record<string, unknown> = {}): TextViewApi {
  return {
    imageUrl: (target: ImageTarget) =>
      'path' in target ? `file:${target.path}` : `embed:${target.embed}@${target.note}`,
    saveImage: () => Promise.reject(new Error('not here')),
    setting: (key) => settings[key],
    onSettingsChange: () => () => undefined,
    // Not what images ask for.
    request: () => Promise.reject(new Error('not here')),
    subscribe: () => () => undefined,
    open: () => Promise.reject(new Error('not here')),
  };
}

describe('imageSource', () => {
  it('resolves a relative path against the note’s folder, %-escapes decoded', () => {
    expect(imageSource('pic.png', tab, api())).toEqual({ url: 'file:/vault/notes/pic.png' });
    expect(imageSource('<../img/a b.png>', tab, api())).toEqual({ url: 'file:/vault/notes/../img/a b.png' });
    expect(imageSource('a%20b.png?x=1', tab, api())).toEqual({ url: 'file:/vault/notes/a b.png' });
  });

  it('loads a remote image only while remote content is allowed', () => {
    expect(imageSource('https://example.com/a.png', tab, api())).toEqual({
      notice: expect.stringContaining('Remote image not loaded'),
    });
    expect(imageSource('https://example.com/a.png', tab, api({ 'images.allowRemote': true }))).toEqual({
      url: 'https://example.com/a.png',
    });
  });

  it('shows no other scheme, and nothing for an unsaved note', () => {
    expect(imageSource('file:///etc/passwd', tab, api())).toHaveProperty('notice');
    expect(imageSource('javascript:alert(1)', tab, api())).toHaveProperty('notice');
    expect(imageSource('pic.png', { ...tab, filePath: null }, api())).toHaveProperty('notice');
  });
});

describe('imageDecorations', () => {
  const widgets = (doc: string, cursor: number) => {
    const state = EditorState.create({
      doc,
      selection: EditorSelection.cursor(cursor),
      extensions: [markdown({ base: markdownLanguage }), imageHost.of({ tab, api: api() })],
    });
    ensureSyntaxTree(state, doc.length, 10_000);
    const found: [number, number][] = [];
    imageDecorations(state.update({}).state, [{ from: 0, to: doc.length }]).between(
      0,
      doc.length,
      (from, to) => {
        found.push([from, to]);
      },
    );
    return found;
  };

  it('replaces an image and an image embed on a line not being edited; leaves code and note embeds alone', () => {
    const doc = 'x\n![a](p.png)\n![[q.png]]\n![[Other note]]\n`![[r.png]]`\n';
    expect(widgets(doc, 0)).toEqual([
      [2, 13],
      [14, 24],
    ]);
  });

  it('shows the image after its source on the line being edited', () => {
    expect(widgets('![a](p.png)\n', 1)).toEqual([[11, 11]]);
  });
});
