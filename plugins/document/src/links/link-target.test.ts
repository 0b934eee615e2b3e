import { describe, expect, it } from 'vitest';
import { linkTarget, newNotePath } from './link-target.js';
import { noteLinks } from './note-links.js';

const FILES = [
  'index.md',
  'notes/Ideas.md',
  'notes/todo.md',
  'archive/todo.md',
  'archive/2024/ideas.md',
  'deep/a/b/todo.md',
  'img/pic.png',
  'img/a b.png',
  'Space name.md',
];

/** Where the first link of `text`, written in the note at `note`, goes. */
const target = (text: string, note = 'notes/todo.md', files = FILES) =>
  linkTarget(noteLinks(text)[0]!, note, files);

describe('where a wikilink goes', () => {
  it('finds a note by its name, without or with .md, case-insensitively', () => {
    expect(target('[[index]]')).toBe('index.md');
    expect(target('[[index.md]]')).toBe('index.md');
    expect(target('[[INDEX]]')).toBe('index.md');
    expect(target('[[Space name]]')).toBe('Space name.md');
  });

  it("prefers the note's own folder, then the shortest path", () => {
    expect(target('[[todo]]', 'notes/x.md')).toBe('notes/todo.md');
    expect(target('[[todo]]', 'elsewhere.md')).toBe('notes/todo.md');
    expect(target('[[todo]]', 'archive/2024/ideas.md')).toBe('notes/todo.md');
    expect(target('[[ideas]]', 'index.md')).toBe('notes/Ideas.md');
  });

  it('with a / in it, by the end of its path', () => {
    expect(target('[[archive/todo]]', 'notes/x.md')).toBe('archive/todo.md');
    expect(target('[[b/todo]]')).toBe('deep/a/b/todo.md');
    expect(target('[[2024/ideas]]')).toBe('archive/2024/ideas.md');
  });

  it('finds a picture by its name for an embed', () => {
    expect(target('![[pic.png]]')).toBe('img/pic.png');
  });

  it('names nothing for a note that is not there', () => {
    expect(target('[[missing]]')).toBeNull();
    expect(target('[[odo]]')).toBeNull();
  });

  it('names the note itself for a same-note link', () => {
    expect(target('[[#Heading]]')).toBe('notes/todo.md');
    expect(target('[top](#Heading)')).toBe('notes/todo.md');
  });
});

describe('where a Markdown link goes', () => {
  it("is relative to the note's folder, decoded, .md optional", () => {
    expect(target('[a](Ideas.md)')).toBe('notes/Ideas.md');
    expect(target('[a](Ideas)')).toBe('notes/Ideas.md');
    expect(target('[a](../img/a%20b.png)')).toBe('img/a b.png');
    expect(target('[a](<../img/a b.png>)')).toBe('img/a b.png');
    expect(target('[a](./../index.md#Top)')).toBe('index.md');
  });

  it("from / is the vault's root", () => {
    expect(target('[a](/archive/todo.md)')).toBe('archive/todo.md');
  });

  it('is exact: no search by name, no other case', () => {
    expect(target('[a](index.md)')).toBeNull();
    expect(target('[a](ideas.md)')).toBeNull();
  });

  it('names nothing when it climbs out of the vault or holds a NUL', () => {
    expect(target('[a](../../index.md)')).toBeNull();
    expect(target('[a](../../../etc/passwd)')).toBeNull();
    expect(target('[a](%00index.md)', 'index.md')).toBeNull();
  });
});

describe('where a missing note is made', () => {
  const made = (text: string, note: string | null = 'notes/todo.md') =>
    newNotePath(noteLinks(text)[0]!, note);

  it("puts a wikilink's note next to the linking note, and one with a folder from the root", () => {
    expect(made('[[New idea]]')).toEqual({ path: 'notes/New idea.md' });
    expect(made('[[New idea.md]]')).toEqual({ path: 'notes/New idea.md' });
    expect(made('[[v1.2 plan]]')).toEqual({ path: 'notes/v1.2 plan.md' });
    expect(made('[[archive/New]]')).toEqual({ path: 'archive/New.md' });
    expect(made('[[New]]', null)).toEqual({ path: 'New.md' });
  });

  it("puts a Markdown link's note where its path leads from the linking note", () => {
    expect(made('[x](../other/new.md)')).toEqual({ path: 'other/new.md' });
    expect(made('[x](new%20one)')).toEqual({ path: 'notes/new one.md' });
  });

  it('refuses what climbs out, looks absolute, holds a NUL or a backslash, or is no note', () => {
    expect(made('[x](../../etc/passwd)')).toEqual({ refused: 'leads out of the workspace' });
    expect(made('[[../../x]]')).toEqual({ refused: 'leads out of the workspace' });
    expect(made('[x](/etc/passwd)')).toMatchObject({ refused: expect.stringContaining('absolute') });
    expect(made('[[/etc/passwd]]')).toMatchObject({ refused: expect.stringContaining('absolute') });
    expect(newNotePath({ form: 'wikilink', target: 'C:/Windows/x' }, 'a.md')).toMatchObject({
      refused: expect.stringContaining('absolute'),
    });
    expect(made('[x](a%00b)')).toMatchObject({ refused: expect.stringContaining('NUL') });
    expect(newNotePath({ form: 'wikilink', target: 'a\\b' }, 'a.md')).toMatchObject({
      refused: expect.stringContaining('backslash'),
    });
    expect(made('[[photo.png]]')).toEqual({ refused: 'names a file that is not a note' });
  });
});
