import { describe, expect, it } from 'vitest';
import { diffLines, splitLines } from './line-diff.js';

describe('diffLines', () => {
  it('splits lines keeping their endings, the last one possibly without', () => {
    expect(splitLines('a\r\nb\nc')).toEqual(['a\r\n', 'b\n', 'c']);
    expect(splitLines('')).toEqual([]);
  });

  it('reports only the lines that differ, and their bytes', () => {
    expect(diffLines('a\nb\nc\n', 'a\nB\nc\nd\n')).toEqual({
      removed: ['b\n'],
      added: ['B\n', 'd\n'],
      bytesChanged: 6,
    });
    expect(diffLines('same\n', 'same\n')).toEqual({ removed: [], added: [], bytesChanged: 0 });
    expect(diffLines('x: é\n', 'x: e\n').bytesChanged).toBe(11);
  });

  it('pairs moved blocks as a removal and an addition', () => {
    const diff = diffLines('1\n2\n3\n4\n', '3\n1\n2\n4\n');
    expect(diff.removed.length + diff.added.length).toBe(2);
  });
});
