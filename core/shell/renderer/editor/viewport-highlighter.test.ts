import { HighlightStyle, highlightingFor, syntaxHighlighting } from '@codemirror/language';
import { EditorState, type Extension } from '@codemirror/state';
import { type Highlighter, highlightTree, tagHighlighter, tags } from '@lezer/highlight';
import { GFM, parser } from '@vmark/sdk/markdown';
import { describe, expect, it } from 'vitest';
import { highlightStyle, treeAround } from './viewport-highlighter.js';

const highlighter: Highlighter = tagHighlighter([
  { tag: tags.heading, class: 'h' },
  { tag: tags.strong, class: 's' },
  { tag: tags.emphasis, class: 'e' },
  { tag: tags.link, class: 'l' },
  { tag: tags.url, class: 'u' },
  { tag: tags.monospace, class: 'm' },
  { tag: tags.processingInstruction, class: 'p' },
  { tag: tags.quote, class: 'q' },
  { tag: tags.list, class: 'li' },
]);

/** A note of `sections` sections: headings, emphasis, links, code, lists, quotes, tables. */
function note(sections: number): string {
  const parts: string[] = [];
  for (let i = 0; i < sections; i++) {
    parts.push(
      `## Section ${i}`,
      '',
      `Some **strong** and *emphasis* with [a link](https://x.test/${i}) and \`code\`.`,
      '',
    );
    if (i % 3 === 0) parts.push('- one', '- two *item*', '');
    if (i % 4 === 1) parts.push('> a quote with **marks**', '');
    if (i % 5 === 2) parts.push('```ts', `const x${i} = 1;`, '```', '');
    if (i % 7 === 3) parts.push('| a | b |', '| - | - |', `| ${i} | **x** |`, '');
  }
  return parts.join('\n');
}

function spans(tree: Parameters<typeof highlightTree>[0], from: number, to: number): string[] {
  const out: string[] = [];
  highlightTree(tree, highlighter, (start, end, style) => out.push(`${start}-${end}:${style}`), from, to);
  return out;
}

describe('treeAround', () => {
  const gfm = parser.configure(GFM);

  it.each([
    ['a small note (its blocks in one buffer)', 3],
    ['a large note (its blocks under balancing nodes)', 4000],
  ])('gives highlightTree the same spans as the whole tree, in %s', (_, sections) => {
    const text = note(sections);
    const tree = gfm.parse(text);
    const windows: [number, number][] = [
      [0, Math.min(500, text.length)],
      [Math.floor(text.length / 2), Math.floor(text.length / 2) + 3000],
      [text.length - 4000, text.length],
      [text.length - 1, text.length],
      [0, text.length],
    ];
    let seen = 0;
    for (const [from, to] of windows.map(([a, b]) => [Math.max(0, a), Math.min(text.length, b)])) {
      const expected = spans(tree, from!, to!);
      expect(spans(treeAround(tree, from!, to!), from!, to!)).toEqual(expected);
      seen += expected.length;
    }
    // The comparison saw colours, not two empty lists.
    expect(seen).toBeGreaterThan(10);
  });

  it('keeps only the blocks around the range in a large note', () => {
    const text = note(4000);
    const tree = gfm.parse(text);
    const around = treeAround(tree, text.length - 2000, text.length);
    expect(around.length).toBe(tree.length);
    expect(around.children.length).toBeGreaterThan(0);
    expect(around.children.length).toBeLessThan(100);
  });
});

describe('highlightStyle', () => {
  const style = HighlightStyle.define([{ tag: tags.heading, fontWeight: 'bold' }]);

  it('registers the style without CodeMirror’s own walker', () => {
    const first = syntaxHighlighting(style) as readonly Extension[];
    const second = syntaxHighlighting(style) as readonly Extension[];
    // The walker: the one part every call shares (the registration and style sheet are new each time).
    const shared = first.filter((part) => second.includes(part));
    expect(shared).toHaveLength(1);
    const registered = highlightStyle(style) as readonly Extension[];
    expect(registered).not.toContain(shared[0]);
    expect(registered).toHaveLength(first.length - 1);
  });

  it('keeps the style registered, so the state still answers its classes', () => {
    const state = EditorState.create({ extensions: highlightStyle(style) });
    expect(highlightingFor(state, [tags.heading])).toBe(style.style([tags.heading]));
    expect(highlightingFor(state, [tags.heading])).not.toBeNull();
  });
});
