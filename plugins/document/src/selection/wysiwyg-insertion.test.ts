import { describe, expect, it } from 'vitest';
import { sourceContext } from './source-context.js';
import { wysiwygInsertion } from './wysiwyg-insertion.js';

/** The source with `[` `]` marking the selection (or `|` a cursor), and the range they mark. */
function marked(text: string): { source: string; range: { from: number; to: number } } {
  const cursor = text.indexOf('|');
  if (cursor !== -1) return { source: text.replace('|', ''), range: { from: cursor, to: cursor } };
  const from = text.indexOf('[');
  const to = text.indexOf(']') - 1;
  return { source: text.replace('[', '').replace(']', ''), range: { from, to } };
}

const insert = (text: string, content: string): string => {
  const { source, range } = marked(text);
  return wysiwygInsertion(source, range, content);
};

describe('sourceContext', () => {
  it.each([
    ['a word in a paragraph', 'Hello [world]\n', { kind: 'prose', atLineStart: false }],
    ['the start of a paragraph', '[Hello] world\n', { kind: 'prose', atLineStart: true }],
    ['a heading', '# Title [here]\n', { kind: 'prose', atLineStart: false }],
    ['the start of a list item', '- [item]\n', { kind: 'prose', atLineStart: true }],
    ['the start of a quoted line', '> [quoted]\n', { kind: 'prose', atLineStart: true }],
    [
      'a soft line break inside a paragraph',
      'one [two\nthree] four\n',
      { kind: 'prose', atLineStart: false },
    ],
    ['a blank line', 'a\n\n|\n\nb\n', { kind: 'prose', atLineStart: true }],
    ['a fenced code block', '```\nco[de]\n```\n', { kind: 'literal' }],
    ['an indented code block', 'para\n\n    co[de]\n', { kind: 'literal' }],
    ['inline code', 'run `npm [test]` now\n', { kind: 'literal' }],
    ['an HTML block', '<div>\nin [html]\n</div>\n', { kind: 'literal' }],
    ['two paragraphs', 'one [two\n\nthree] four\n', { kind: 'blocks' }],
  ])('places a range in %s', (_, text, context) => {
    const { source, range } = marked(text);
    expect(sourceContext(source, range)).toEqual(context);
  });

  it('counts an inline code span selected with its backticks as prose', () => {
    const { source, range } = marked('run [`npm test`] now\n');
    expect(sourceContext(source, range)).toEqual({ kind: 'prose', atLineStart: false });
  });
});

describe('wysiwygInsertion', () => {
  it('inserts plain text literally, escaped where it would become markup', () => {
    expect(insert('Hello [world]\n', '5 * 3 and [x] < y')).toBe('5 \\* 3 and \\[x\\] \\< y');
    expect(insert('[Hello] world\n', '1) not a list')).toBe('1\\) not a list');
    expect(insert('Hello [world]\n', '  spaced  ')).toBe('  spaced  ');
    expect(insert('Hello |\n', 'snake_case')).toBe('snake_case');
  });

  it('deletes with empty content', () => {
    expect(insert('Hello [world]\n', '')).toBe('');
  });

  it('takes text in code as it is', () => {
    expect(insert('```\nco[de]\n```\n', 'a*b*')).toBe('a*b*');
    expect(insert('run `npm [test]` now\n', '# x')).toBe('# x');
  });

  it('splices the inline content of Markdown that is one paragraph or heading', () => {
    expect(insert('Hello [world]\n', '**bold** move')).toBe('**bold** move');
    expect(insert('Hello [world]\n', '## *Title* ##')).toBe('*Title*');
  });

  it('sets block Markdown apart from the prose around it', () => {
    expect(insert('Hello [world] again\n', '- a\n- b\n')).toBe('\n\n- a\n- b\n\n');
    expect(insert('Intro\n[Hello world]\nOutro\n', '- a\n- b')).toBe('\n- a\n- b\n');
    expect(insert('Intro\n\n[Hello world]\n\nOutro\n', '- a\n- b')).toBe('- a\n- b');
  });

  it('takes content across blocks as Markdown', () => {
    expect(insert('one [two\n\nthree] four\n', 'a*b*')).toBe('\n\na*b*\n\n');
  });
});
