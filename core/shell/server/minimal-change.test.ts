import { ChangeSet, Text } from '@codemirror/state';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { minimalChange } from './minimal-change.js';

const apply = (before: string, after: string) =>
  ChangeSet.fromJSON(minimalChange(before, after))
    .apply(Text.of(before.split('\n')))
    .toString();

describe('minimalChange', () => {
  it('turns any text into any other', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.string({ unit: 'binary' }), (before, after) => {
        expect(apply(before, after)).toBe(after);
      }),
    );
  });

  it('turns any text of lines, CJK and emoji into any edit of it, never splitting a surrogate pair', () => {
    // Few distinct pieces, so that generated texts share lines and the line diff has work to do.
    const piece = fc.constantFrom('\n', '\r\n', 'a', 'b', ' ', '漢字', '中文。', '😀', '😁', '👍🏽', 'e\u0301');
    const text = fc.array(piece, { maxLength: 60 }).map((parts) => parts.join(''));
    const edit = fc.record({ at: fc.nat(), cut: fc.nat(8), insert: fc.array(piece, { maxLength: 6 }) });
    const edited = fc.tuple(text, fc.array(edit, { maxLength: 5 })).map(([before, edits]) => {
      let after = before;
      for (const { at, cut, insert } of edits) {
        const from = at % (after.length + 1);
        after = after.slice(0, from) + insert.join('') + after.slice(from + cut);
      }
      return [before, after] as const;
    });
    fc.assert(
      fc.property(fc.oneof(edited, fc.tuple(text, text)), ([before, after]) => {
        expect(apply(before, after)).toBe(after);
        const changes = ChangeSet.fromJSON(minimalChange(before, after));
        changes.iterChanges((fromA, toA, fromB, toB) => {
          for (const [text, at] of [
            [before, fromA],
            [before, toA],
            [after, fromB],
            [after, toB],
          ] as const) {
            expect(splitsPair(text, at)).toBe(false);
          }
        });
      }),
      { numRuns: 2000 },
    );
  });

  it('replaces only the lines that changed, so a cursor between two changes stays on its text', () => {
    const lines = Array.from({ length: 200 }, (_, i) => `line ${i} of the note`);
    const before = lines.join('\n');
    const after = ['A new first line', ...lines.slice(0, 120), 'inserted', ...lines.slice(121)].join('\n');
    const changes = ChangeSet.fromJSON(minimalChange(before, after));
    const touched: [number, number, string][] = [];
    changes.iterChanges((from, to, _f, _t, inserted) => touched.push([from, to, inserted.toString()]));
    expect(touched).toHaveLength(2);
    const cursor = before.indexOf('line 60 of');
    expect(after.slice(changes.mapPos(cursor), changes.mapPos(cursor) + 10)).toBe('line 60 of');
  });

  it('falls back to one replacement past its bound, and still gives the new text', () => {
    const before = Array.from({ length: 3000 }, (_, i) => `old ${i}`).join('\n');
    const after = Array.from({ length: 3000 }, (_, i) => `new ${i}`).join('\n');
    expect(apply(before, after)).toBe(after);
    let ranges = 0;
    ChangeSet.fromJSON(minimalChange(before, after)).iterChanges(() => ranges++);
    expect(ranges).toBe(1);
  });

  it('keeps the common prefix and suffix', () => {
    const changes = ChangeSet.fromJSON(minimalChange('# Title\n\nold words\n', '# Title\n\nnew words\n'));
    const touched: [number, number, string][] = [];
    changes.iterChanges((from, to, _f, _t, inserted) => touched.push([from, to, inserted.toString()]));
    expect(touched).toEqual([[9, 12, 'new']]);
  });

  it('keeps the common prefix and suffix of long texts, found block by block, to the character', () => {
    // Texts of several 1024-character blocks: one character changed anywhere, a surrogate pair included.
    const long = fc.array(fc.constantFrom('line of text\n', '😀', '漢', 'x'), {
      minLength: 400,
      maxLength: 900,
    });
    const edit = fc.record({ at: fc.nat(), insert: fc.constantFrom('', 'y', '😁', '\n'), cut: fc.nat(2) });
    fc.assert(
      fc.property(long, edit, (parts, { at, insert, cut }) => {
        const before = parts.join('');
        const from = at % (before.length + 1);
        const after = before.slice(0, from) + insert + before.slice(from + cut);
        expect(apply(before, after)).toBe(after);
        let prefix = 0;
        while (prefix < Math.min(before.length, after.length) && before[prefix] === after[prefix]) prefix++;
        const changes = ChangeSet.fromJSON(minimalChange(before, after));
        const touched: number[] = [];
        changes.iterChanges((fromA, toA) => touched.push(fromA, toA));
        if (before === after) {
          expect(touched).toEqual([]);
          return;
        }
        // Starts at the first difference (a character earlier to keep a surrogate pair whole).
        expect(prefix - touched[0]!).toBeLessThanOrEqual(1);
        expect(touched[touched.length - 1]! - touched[0]!).toBeLessThanOrEqual(cut + 2);
      }),
      { numRuns: 300 },
    );
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

function splitsPair(text: string, at: number): boolean {
  const high = text.charCodeAt(at - 1);
  const low = text.charCodeAt(at);
  return high >= 0xd800 && high <= 0xdbff && low >= 0xdc00 && low <= 0xdfff;
}
