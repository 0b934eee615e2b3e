import { ChangeSet, Text } from '@codemirror/state';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { minimalChange } from './minimal-change.js';

const apply = (before: string, after: string) =>
  ChangeSet.fromJSON(minimalChange(before, after))
    .apply(Text.of(before.split('\n')))
    .toString();

describe('minimalChange', () => {
  it('turns any text into any other, as one replacement', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.string({ unit: 'binary' }), (before, after) => {
        expect(apply(before, after)).toBe(after);
        let ranges = 0;
        ChangeSet.fromJSON(minimalChange(before, after)).iterChanges(() => ranges++);
        expect(ranges).toBeLessThanOrEqual(1);
      }),
    );
  });

  it('keeps the common prefix and suffix', () => {
    const changes = ChangeSet.fromJSON(minimalChange('# Title\n\nold words\n', '# Title\n\nnew words\n'));
    const touched: [number, number, string][] = [];
    changes.iterChanges((from, to, _f, _t, inserted) => touched.push([from, to, inserted.toString()]));
    expect(touched).toEqual([[9, 12, 'new']]);
  });

  it('changes nothing for equal texts, CRLF included', () => {
    expect(ChangeSet.fromJSON(minimalChange('a\r\nb', 'a\r\nb')).empty).toBe(true);
    expect(apply('a\r\nb\r\n', 'a\r\nc\r\n')).toBe('a\r\nc\r\n');
  });

  it('never splits a surrogate pair', () => {
    // 😀 and 😁 share their high surrogate; the change must take the whole character.
    const changes = ChangeSet.fromJSON(minimalChange('x😀y', 'x😁y'));
    changes.iterChanges((from, to, _f, _t, inserted) => {
      expect([from, to, inserted.toString()]).toEqual([1, 3, '😁']);
    });
  });
});
