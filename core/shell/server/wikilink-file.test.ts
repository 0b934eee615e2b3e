import { describe, expect, it } from 'vitest';
import { wikilinkFile } from './wikilink-file.js';

describe('wikilinkFile', () => {
  const files = ['a/b/pic.png', 'pic.png', 'notes/pic.png', 'z/Photo.JPG', 'x/y/img/deep.png'];

  it('prefers the note’s own folder, then the shortest path', () => {
    expect(wikilinkFile('pic.png', 'notes/n.md', files)).toBe('notes/pic.png');
    expect(wikilinkFile('pic.png', 'other/n.md', files)).toBe('pic.png');
  });

  it('matches case-insensitively and by the end of a path', () => {
    expect(wikilinkFile('photo.jpg', 'n.md', files)).toBe('z/Photo.JPG');
    expect(wikilinkFile('img/deep.png', 'n.md', files)).toBe('x/y/img/deep.png');
    expect(wikilinkFile('g/deep.png', 'n.md', files)).toBeNull();
  });

  it('names nothing for `..`, NUL or an empty name', () => {
    expect(wikilinkFile('../pic.png', 'n.md', files)).toBeNull();
    expect(wikilinkFile('pic.png\0', 'n.md', files)).toBeNull();
    expect(wikilinkFile('', 'n.md', files)).toBeNull();
  });
});
