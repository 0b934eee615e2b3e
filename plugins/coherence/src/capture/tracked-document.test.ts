import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assignIdentity } from '../kernel/identity/index.js';
import { identityOf, identityOfDocument } from './tracked-document.js';

const ID = '018f3c7a-9f2e-7cc1-b302-5e9d4a6b21c7';

/** A snapshot as the host gives it: `head` reads a prefix; `content` counts the times the whole text is built. */
function snapshot(text: string) {
  const built = { count: 0 };
  return {
    built,
    document: {
      get content() {
        built.count++;
        return text;
      },
      head: (length: number) => text.slice(0, length),
    },
  };
}

describe('identityOfDocument', () => {
  it('reads what identityOf reads from the whole text, from the head wherever the head holds it', () => {
    const ending = fc.constantFrom('\n', '\r\n', '\r');
    const body = fc.string({ unit: fc.constantFrom('a', ' ', '\n', '-', ':'), maxLength: 40 });
    const text = fc
      .tuple(body, ending, fc.boolean(), fc.constantFrom('', '---', '---\n', 'title: x\n'))
      .map(([b, eol, identified, prefix]) =>
        (prefix + (identified ? assignIdentity(b, ID) : b)).replace(/\r?\n/g, eol),
      );
    fc.assert(
      fc.property(text, fc.integer({ min: 1, max: 80 }), (t, headChars) => {
        const { document } = snapshot(t);
        expect(identityOfDocument(document, headChars)).toEqual(identityOf(t));
      }),
    );
  });

  it('does not build the whole text when the front matter closes inside the head, or there is none', () => {
    const tail = 'x'.repeat(10_000);
    const identified = snapshot(assignIdentity(`# Note\n${tail}`, ID));
    expect(identityOfDocument(identified.document, 200)?.id).toBe(ID);
    const plain = snapshot(`# Note\n${tail}`);
    expect(identityOfDocument(plain.document, 200)).toBeNull();
    expect([identified.built.count, plain.built.count]).toEqual([0, 0]);
    // Longer than the first look: the head grows to it.
    const longer = snapshot(assignIdentity(`---\nnotes: ${'y'.repeat(5000)}\n---\n${tail}`, ID));
    expect(identityOfDocument(longer.document)?.id).toBe(ID);
    expect(longer.built.count).toBe(0);
    // A front matter longer than the head: the whole text is read, and the identity still found.
    const long = snapshot(assignIdentity(`---\nnotes: ${'y'.repeat(500)}\n---\n${tail}`, ID));
    expect(identityOfDocument(long.document, 200)?.id).toBe(ID);
    expect(long.built.count).toBe(1);
  });

  it('reads content from a host that offers no head', () => {
    const text = assignIdentity('# Note\n', ID);
    expect(identityOfDocument({ content: text })?.id).toBe(ID);
  });
});
