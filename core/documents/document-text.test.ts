import { ChangeSet } from '@codemirror/state';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DocumentText } from './document-text.js';

/** The changes applied to the string itself, slice by slice (what the authority did before ADR 81). */
function spliced(content: string, changes: ChangeSet): string {
  let out = '';
  let position = 0;
  changes.iterChanges((fromA, toA, _fromB, _toB, inserted) => {
    out += content.slice(position, fromA) + inserted.sliceString(0, inserted.length, '\n');
    position = toA;
  });
  return out + content.slice(position);
}

/** Random ChangeSets over `length`: sorted, non-overlapping replacements with inserts that hold newlines. */
const changeSpecs = (length: number) =>
  fc
    .array(
      fc.tuple(
        fc.nat(length),
        fc.nat(length),
        fc.string({ unit: fc.constantFrom('a', 'é', '\n', '\r', '日') }),
      ),
      { maxLength: 6 },
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

const contentAndChanges = fc
  .string({ unit: fc.constantFrom('x', 'ü', '\n', '\r', ' ') })
  .chain((content) => fc.tuple(fc.constant(content), changeSpecs(content.length)));

describe('DocumentText', () => {
  it('applies changes at the offsets the editor names, keeping a \\r as a character of its line', () => {
    const content = 'one\ntwo\r\nthree';
    const changes = ChangeSet.of(
      [
        { from: 0, to: 3, insert: 'ONE' },
        { from: 7, insert: '\nnew line' },
        { from: 9, to: 14 },
      ],
      content.length,
    );
    const after = DocumentText.of(content).apply(changes);
    expect(after.string).toBe('ONE\ntwo\nnew line\r\n');
    expect(after.length).toBe(after.string.length);
  });

  it('gives, through the rope, the text the changes give on the string; slices and length agree', () => {
    fc.assert(
      fc.property(contentAndChanges, fc.nat(), fc.nat(), ([content, specs], a, b) => {
        const changes = ChangeSet.of(specs, content.length);
        const expected = spliced(content, changes);
        const after = DocumentText.of(content).apply(changes);
        const from = a % (expected.length + 1);
        const to = from + (b % (expected.length - from + 1));
        // The slice and the length are read from the rope, before its string exists.
        expect(after.slice(from, to)).toBe(expected.slice(from, to));
        expect(after.length).toBe(expected.length);
        expect(after.string).toBe(expected);
      }),
    );
  });

  it('is equal to its base exactly when the changes leave the text as it was', () => {
    fc.assert(
      fc.property(contentAndChanges, ([content, specs]) => {
        const before = DocumentText.of(content);
        const after = before.apply(ChangeSet.of(specs, content.length));
        const same = after.string === content;
        expect(after.equals(before)).toBe(same);
        expect(before.equals(after)).toBe(same);
        expect(after.equals(content)).toBe(same);
      }),
    );
  });

  it('tells a change that puts back the characters it replaced from one that does not', () => {
    const before = DocumentText.of('abc\ndef');
    const noOp = before.apply(ChangeSet.of({ from: 1, to: 5, insert: 'bc\nd' }, 7));
    const real = before.apply(ChangeSet.of({ from: 1, to: 5, insert: 'bc\nD' }, 7));
    expect(noOp.equals(before)).toBe(true);
    expect(real.equals(before)).toBe(false);
    expect(real.equals(DocumentText.of('abc\nDef'))).toBe(true);
  });

  it('names the changes it was made with from its own base only', () => {
    const base = DocumentText.of('one\ntwo');
    const changes = ChangeSet.of({ from: 4, to: 7, insert: '2' }, 7, '\n');
    const next = base.apply(changes);
    expect(next.changesSince(base)).toBe(changes);
    expect(next.changesSince(DocumentText.of('one\ntwo'))).toBeNull();
    expect(next.apply(ChangeSet.of({ from: 0, insert: '!' }, 5, '\n')).changesSince(base)).toBeNull();
    expect(base.changesSince(base)).toBeNull();
  });

  it('sends the bytes it was read from while undecoded, and once after it is decoded; then its text encoded', () => {
    const bytes = new TextEncoder().encode('a\r\nb ✓ 😀');
    const text = DocumentText.ofUtf8(bytes);
    expect(text.takeUtf8()).toBe(bytes);
    // Not read yet: the bytes are still the text, and still what is sent.
    expect(text.takeUtf8()).toBe(bytes);
    expect(text.string).toBe('a\r\nb ✓ 😀');
    const again = text.takeUtf8();
    expect(again).not.toBe(bytes);
    expect(new TextDecoder().decode(again)).toBe('a\r\nb ✓ 😀');
    expect(new TextDecoder().decode(DocumentText.of('x ✓').takeUtf8())).toBe('x ✓');
  });

  it('keeps the bytes for the first frame when the text is read before it', () => {
    const bytes = new TextEncoder().encode('read ✓ first');
    const text = DocumentText.ofUtf8(bytes);
    expect(text.rope.toString()).toBe('read ✓ first');
    expect(text.takeUtf8()).toBe(bytes);
    expect(text.takeUtf8()).not.toBe(bytes);
  });

  it('leaves out a byte order mark, as the fatal decoder does', () => {
    const text = DocumentText.ofUtf8(new Uint8Array([0xef, 0xbb, 0xbf, 0x61, 0xe2, 0x9c, 0x93]));
    expect([text.string, text.length, text.head(1)]).toEqual(['a✓', 2, 'a']);
    expect([...text.takeUtf8()]).toEqual([0x61, 0xe2, 0x9c, 0x93]);
  });

  it('read from UTF-8 is the decoded text in every form: length, head, slice, rope, equality', () => {
    const unit = fc.constantFrom('a', 'é', '\n', '\r', '日', '😀', '\u{10ffff}', '\u0800', '\u07ff', ' ');
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 200 }), fc.nat(700), (content, count) => {
        const bytes = new TextEncoder().encode(content);
        // Each read on a fresh text: each reads the bytes, not a string another read built.
        const of = () => DocumentText.ofUtf8(bytes);
        expect(of().length).toBe(content.length);
        expect(of().head(count)).toBe(content.slice(0, count));
        expect(of().slice(1, count)).toBe(content.slice(1, count));
        expect(of().rope.sliceString(0, undefined, '\n')).toBe(content);
        expect(of().equals(content)).toBe(true);
        expect(of().equals(DocumentText.of(content))).toBe(true);
        const text = of();
        void text.length;
        void text.head(count);
        expect(text.takeUtf8()).toBe(bytes);
        expect(text.string).toBe(content);
      }),
    );
  });
});
