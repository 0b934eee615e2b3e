import { describe, expect, it } from 'vitest';
import { escapeMarkdownText } from './escape-markdown.js';

/* Plain text that must stay plain in a paragraph: each rule, with what it protects against. */
describe('escapeMarkdownText', () => {
  it.each([
    ['a backslash (an escape of its own)', 'a\\b', 'a\\\\b'],
    ['a backtick (code)', 'a`b', 'a\\`b'],
    ['a star (emphasis)', 'a*b*c', 'a\\*b\\*c'],
    ['a tilde (strikethrough)', 'a~~b', 'a\\~\\~b'],
    ['brackets (links)', '[x](y)', '\\[x\\](y)'],
    ['an angle bracket (HTML, autolinks)', '<b>', '\\<b>'],
    ['an underscore at a word edge (emphasis)', '_a_', '\\_a\\_'],
    ['an ampersand that starts a character reference', '&amp; &#35;', '\\&amp; \\&#35;'],
  ])('escapes %s anywhere in a line', (_, text, escaped) => {
    expect(escapeMarkdownText(text, false)).toBe(escaped);
  });

  it.each([
    ['an underscore inside a word', 'snake_case_name'],
    ['a lone ampersand', 'salt & pepper'],
    ['a hash in the middle of a line', 'issue #12'],
    ['a dash in the middle of a line', 'well - maybe'],
    ['whitespace, kept exactly', '  two  spaces  '],
    ['CJK text', '中文，標點。'],
  ])('leaves %s as it is', (_, text) => {
    expect(escapeMarkdownText(text, false)).toBe(text);
  });

  it.each([
    ['a heading mark', '# not a heading', '\\# not a heading'],
    ['a heading mark after indentation', '  ## no', '  \\## no'],
    ['a quote mark', '> not a quote', '\\> not a quote'],
    ['a dash bullet', '- not a list', '\\- not a list'],
    ['a plus bullet', '+ not a list', '\\+ not a list'],
    ['a star bullet', '* not a list', '\\* not a list'],
    ['a thematic break', '---', '\\---'],
    ['a setext underline', '===', '\\==='],
    ['an ordered item with a dot', '1. not a list', '1\\. not a list'],
    ['an ordered item with a parenthesis', '2) not a list', '2\\) not a list'],
  ])('escapes %s at the start of a line', (_, text, escaped) => {
    expect(escapeMarkdownText(text, true)).toBe(escaped);
    expect(escapeMarkdownText(`first\n${text}`, false)).toBe(`first\n${escaped}`);
  });

  it('leaves line-start marks alone in the middle of a line', () => {
    expect(escapeMarkdownText('# mid', false)).toBe('# mid');
    expect(escapeMarkdownText('1. mid', false)).toBe('1. mid');
    expect(escapeMarkdownText('#hashtag', true)).toBe('#hashtag');
  });
});
