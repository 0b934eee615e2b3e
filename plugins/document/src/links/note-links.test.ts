import { describe, expect, it } from 'vitest';
import { noteLinks } from './note-links.js';

const summary = (text: string) =>
  noteLinks(text).map((link) => ({
    form: link.form,
    target: link.target,
    heading: link.heading,
    label: link.label,
    written: text.slice(link.targetFrom, link.targetTo),
  }));

describe("a note's links", () => {
  it('reads wikilinks of each form and embeds', () => {
    expect(summary('[[note]] [[ Other note #Part|shown]] [[#Local]] ![[pic.png]]')).toEqual([
      { form: 'wikilink', target: 'note', heading: null, label: null, written: 'note' },
      { form: 'wikilink', target: 'Other note', heading: 'Part', label: 'shown', written: 'Other note' },
      { form: 'wikilink', target: '', heading: 'Local', label: null, written: '' },
      { form: 'embed', target: 'pic.png', heading: null, label: null, written: 'pic.png' },
    ]);
  });

  it('reads Markdown links, images and reference definitions, decoded, with their fragment apart', () => {
    const text = '[a](sub/My%20note.md#Some%20part) ![i](<img/a b.png> "t") [r][ref]\n\n[ref]: ../up.md\n';
    expect(summary(text)).toEqual([
      {
        form: 'markdown',
        target: 'sub/My note.md',
        heading: 'Some part',
        label: 'a',
        written: 'sub/My%20note.md',
      },
      { form: 'image', target: 'img/a b.png', heading: null, label: 'i', written: 'img/a b.png' },
      { form: 'definition', target: '../up.md', heading: null, label: null, written: '../up.md' },
    ]);
    expect(noteLinks(text)[1]!.angled).toBe(true);
  });

  it('leaves out links with a scheme, protocol-relative links and autolinks', () => {
    expect(
      summary(
        '[w](https://x.org/a.md) [m](mailto:a@b.c) [p](//host/a.md) <https://x.org> [f](file:///etc/passwd)',
      ),
    ).toEqual([]);
  });

  it('finds nothing in code, in code blocks or in front matter', () => {
    const text =
      '---\nup: "[[front]]"\n---\n`[[span]]` and `[a](b.md)`\n\n```\n[[fenced]] [c](d.md)\n```\n\n    [[indented]]\n';
    expect(summary(text)).toEqual([]);
  });

  it('keeps a broken percent escape as written', () => {
    expect(summary('[a](100%.md)')).toEqual([
      { form: 'markdown', target: '100%.md', heading: null, label: 'a', written: '100%.md' },
    ]);
  });
});
