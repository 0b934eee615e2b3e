import { ChangeSet, Text } from '@codemirror/state';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyChangeSet } from './apply-change-set.js';

/** CodeMirror's own application, through a `Text` split on `\n` (what the authority did before). */
const reference = (content: string, changes: ChangeSet) =>
  changes.apply(Text.of(content.split('\n'))).sliceString(0, undefined, '\n');

/** Random ChangeSets over `length`: sorted, non-overlapping replacements with inserts that hold newlines. */
const changeSpecs = (length: number) =>
  fc
    .array(
      fc.tuple(
        fc.nat(length),
        fc.nat(length),
        fc.string({ unit: fc.constantFrom('a', 'é', '\n', '\r', '日') }),
      ),
      {
        maxLength: 6,
      },
    )
    .map((raw) => {
      const points = raw
        .map(([a, b, insert]) => ({ from: Math.min(a, b), to: Math.max(a, b), insert }))
        .sort((x, y) => x.from - y.from);
      const specs: { from: number; to: number; insert: string }[] = [];
      let end = -1;
      for (const spec of points) {
        if (spec.from <= end) continue;
        specs.push(spec);
        end = spec.to;
      }
      return specs;
    });

describe('applyChangeSet', () => {
  it('inserts, deletes and replaces at the offsets the editor names', () => {
    const content = 'one\ntwo\r\nthree';
    const changes = ChangeSet.of(
      [
        { from: 0, to: 3, insert: 'ONE' },
        { from: 7, insert: '\nnew line' },
        { from: 9, to: 14 },
      ],
      content.length,
    );
    expect(applyChangeSet(content, changes)).toBe('ONE\ntwo\nnew line\r\n');
  });

  it('gives what CodeMirror gives, for any changes', () => {
    fc.assert(
      fc.property(
        fc
          .string({ unit: fc.constantFrom('x', 'ü', '\n', '\r', ' ') })
          .chain((content) => fc.tuple(fc.constant(content), changeSpecs(content.length))),
        ([content, specs]) => {
          const changes = ChangeSet.of(specs, content.length);
          expect(applyChangeSet(content, changes)).toBe(reference(content, changes));
        },
      ),
    );
  });
});
