import { GFM, parser } from '@lezer/markdown';
import { describe, expect, it } from 'vitest';
import { Wikilink, wikilinkParts } from './wikilink.js';

const markdown = parser.configure([GFM, Wikilink]);

/** Every wikilink node of `text`: its name and the text it covers. */
function wikilinks(text: string): [string, string][] {
  const found: [string, string][] = [];
  markdown.parse(text).iterate({
    enter(node) {
      if (node.name === 'Wikilink' || node.name === 'WikilinkEmbed')
        found.push([node.name, text.slice(node.from, node.to)]);
    },
  });
  return found;
}

describe('the wikilink extension', () => {
  it('reads each form of link and the embed', () => {
    expect(wikilinks('see [[note]], [[note#Heading]], [[a/b|B]] and [[#Local]]')).toEqual([
      ['Wikilink', '[[note]]'],
      ['Wikilink', '[[note#Heading]]'],
      ['Wikilink', '[[a/b|B]]'],
      ['Wikilink', '[[#Local]]'],
    ]);
    expect(wikilinks('![[picture.png]]')).toEqual([['WikilinkEmbed', '![[picture.png]]']]);
  });

  it('marks its brackets and its text', () => {
    const names: string[] = [];
    markdown.parse('[[x|y]]').iterate({ enter: (node) => void names.push(node.name) });
    expect(names).toEqual([
      'Document',
      'Paragraph',
      'Wikilink',
      'WikilinkMark',
      'WikilinkTarget',
      'WikilinkMark',
    ]);
  });

  it('is no link across a line, with a bracket inside, empty, or unclosed', () => {
    expect(wikilinks('[[one\ntwo]]')).toEqual([]);
    expect(wikilinks('[[a[b]]')).toEqual([]);
    expect(wikilinks('[[]] and [[|alias]]')).toEqual([]);
    expect(wikilinks('[[open')).toEqual([]);
    expect(wikilinks('[[open]')).toEqual([]);
  });

  it('yields to code spans, code blocks and escapes, as any link does', () => {
    expect(wikilinks('`[[code]]`')).toEqual([]);
    expect(wikilinks('```\n[[fenced]]\n```')).toEqual([]);
    expect(wikilinks('\\[[escaped]]')).toEqual([]);
  });

  it('leaves Markdown links and images to Markdown', () => {
    const names: string[] = [];
    markdown.parse('[a](b.md) ![c](d.png)').iterate({ enter: (node) => void names.push(node.name) });
    expect(names).toContain('Link');
    expect(names).toContain('Image');
    expect(names).not.toContain('Wikilink');
  });

  it('is read inside a table cell, where its pipe is written \\|', () => {
    const text = '| a | b |\n| - | - |\n| [[note\\|Alias]] | x |\n';
    expect(wikilinks(text)).toEqual([['Wikilink', '[[note\\|Alias]]']]);
  });
});

describe('wikilinkParts', () => {
  it.each([
    ['note', { target: 'note', heading: null, alias: null }],
    ['note#Heading', { target: 'note', heading: 'Heading', alias: null }],
    ['note#A#B', { target: 'note', heading: 'A#B', alias: null }],
    ['note#^block', { target: 'note', heading: '^block', alias: null }],
    ['folder/note|Shown', { target: 'folder/note', heading: null, alias: 'Shown' }],
    ['note#H|Shown|more', { target: 'note', heading: 'H', alias: 'Shown|more' }],
    ['note\\|Shown', { target: 'note', heading: null, alias: 'Shown' }],
    ['#Local', { target: '', heading: 'Local', alias: null }],
    [' spaced name ', { target: 'spaced name', heading: null, alias: null }],
  ])('%s', (inner, parts) => {
    expect(wikilinkParts(inner)).toEqual(parts);
  });
});
