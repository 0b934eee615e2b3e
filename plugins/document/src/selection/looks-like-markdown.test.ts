import { describe, expect, it } from 'vitest';
import { looksLikeMarkdown } from './looks-like-markdown.js';

/* The rules of vmark-notes §2.4, one line each. */
describe('looksLikeMarkdown', () => {
  it.each([
    ['a blank line between paragraphs', 'one\n\ntwo'],
    ['a heading', '## Title'],
    ['a heading on a later line', 'intro\n# Title'],
    ['a quote', '> quoted'],
    ['a dash bullet', '- item'],
    ['a plus bullet', '+ item'],
    ['a star bullet', '* item'],
    ['an ordered item', '12. item'],
    ['a backtick fence', '```js'],
    ['a tilde fence', '~~~'],
    ['a thematic break', '---'],
    ['a line starting with a tab', '\tindented'],
    ['strong with stars', 'very **bold**'],
    ['strong with underscores', 'very __bold__'],
    ['inline code', 'call `f()`'],
    ['a link', 'see [docs](https://example.com)'],
    ['an image', '![alt](a.png)'],
    ['strikethrough', '~~gone~~'],
    ['paired single-star emphasis', 'an *emphasised* word'],
  ])('sees Markdown in %s', (_, content) => {
    expect(looksLikeMarkdown(content)).toBe(true);
  });

  it.each([
    ['plain words', 'just some words'],
    ['snake_case (underscore emphasis is not detected)', 'call my_function_name now'],
    ['single underscores around a word', 'an _emphasised_ word'],
    ['a lone star', '5 * 3 = 15'],
    ['a star followed by a space', 'a * b *'],
    ['one line break', 'line one\nline two'],
    ['a heading mark without a space', '#hashtag'],
    ['a number without a dot and space', '2024 was a year'],
    ['brackets without a link target', 'array[0] and [note]'],
    ['leading and trailing spaces', '  padded  '],
    ['the empty string', ''],
  ])('takes %s as plain text', (_, content) => {
    expect(looksLikeMarkdown(content)).toBe(false);
  });
});
