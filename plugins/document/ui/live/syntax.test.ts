import { GFM, parser } from '@lezer/markdown';
import { describe, expect, it } from 'vitest';
import { FootnoteSyntax, MathSyntax } from './syntax.js';

const markdown = parser.configure([GFM, MathSyntax, FootnoteSyntax]);

/** Every node as `Name:text`, in document order. */
function nodes(text: string, names: readonly string[]): string[] {
  const out: string[] = [];
  markdown.parse(text).iterate({
    enter: (node) => {
      if (names.includes(node.name)) out.push(`${node.name}:${text.slice(node.from, node.to)}`);
    },
  });
  return out;
}

describe('math syntax', () => {
  it('reads $…$ inline, with its two marks', () => {
    expect(nodes('Euler: $e^{i\\pi}+1=0$ holds.\n', ['InlineMath', 'InlineMathMark'])).toEqual([
      'InlineMath:$e^{i\\pi}+1=0$',
      'InlineMathMark:$',
      'InlineMathMark:$',
    ]);
  });

  it.each([
    ['prices', 'costs $5 and $6 today'],
    ['a space after the opening $', 'a $ b$ c'],
    ['a space before the closing $', 'a $b $ c'],
    ['across a line break', 'a $b\nc$ d'],
    ['an escaped dollar', 'a \\$b$ c'],
    ['inside code', 'a `$b$` c'],
  ])('leaves %s as text', (_, text) => {
    expect(nodes(text, ['InlineMath'])).toEqual([]);
  });

  it('keeps an escaped dollar inside math', () => {
    expect(nodes('x $a\\$b$ y', ['InlineMath'])).toEqual(['InlineMath:$a\\$b$']);
  });

  it('reads a $$ block over lines, and on one line', () => {
    const text = 'Before\n\n$$\n\\int_0^1 x\\,dx\n$$\n\nAfter $$x$$\n\n$$a^2$$\n';
    expect(nodes(text, ['BlockMath'])).toEqual(['BlockMath:$$\n\\int_0^1 x\\,dx\n$$', 'BlockMath:$$a^2$$']);
  });

  it('runs an unclosed block to the end, as a fence does', () => {
    expect(nodes('$$\nx\ny', ['BlockMath'])).toEqual(['BlockMath:$$\nx\ny']);
  });

  it('reads a block whose closing $$ ends its last line', () => {
    expect(nodes('$$\na\nb $$\nnext\n', ['BlockMath', 'Paragraph'])).toEqual([
      'BlockMath:$$\na\nb $$',
      'Paragraph:next',
    ]);
  });
});

describe('footnote syntax', () => {
  it('reads references and a definition, whose text is inline Markdown', () => {
    const text = 'Text[^1] and[^note].\n\n[^1]: The *first* one.\n';
    expect(nodes(text, ['FootnoteReference', 'FootnoteDefinition', 'FootnoteLabel', 'Emphasis'])).toEqual([
      'FootnoteReference:[^1]',
      'FootnoteReference:[^note]',
      'FootnoteDefinition:[^1]: The *first* one.',
      'FootnoteLabel:[^1]:',
      'Emphasis:*first*',
    ]);
  });

  it('leaves a link and a link reference alone', () => {
    const text = '[a](b) and ^x\n\n[ref]: http://x\n';
    expect(nodes(text, ['FootnoteReference', 'FootnoteDefinition', 'Link', 'LinkReference'])).toEqual([
      'Link:[a](b)',
      'LinkReference:[ref]: http://x',
    ]);
  });
});

describe('math in containers', () => {
  it('ends a math block inside a quote where the quote ends', () => {
    expect(nodes('> $$\n> x\n\nafter $$\n', ['BlockMath', 'Paragraph'])).toEqual([
      'BlockMath:$$\n> x',
      'Paragraph:after $$',
    ]);
  });
});
