import { createHash } from 'node:crypto';

import { describe, expect, it } from 'vitest';

import { canonicalize } from './canonical-text.js';
import {
  contentHash,
  contentHashOfBytes,
  isContentHash,
  isRevisionId,
  revisionId,
  revisionPreimage,
} from './hashes.js';

const sha = (s: string | Uint8Array): string => createHash('sha256').update(s).digest('hex');
const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);
const ID = '018f3c7a-9f2e-7cc1-b302-5e9d4a6b21c7';

describe('contentHash', () => {
  it('hashes the identity-masked canonical text', () => {
    const withId = `---\r\ntitle: Elena\r\nvmark:\r\n  id: ${ID}\r\n  schema: character\r\n---\r\nCafe\u0301\r\n`;
    const expected = `sha256:${sha('---\ntitle: Elena\n---\nCaf\u00e9\n')}`;
    expect(contentHashOfBytes(utf8(withId))).toBe(expected);
    expect(contentHash(canonicalize(utf8('---\ntitle: Elena\n---\nCafé\n')), new Uint8Array())).toBe(
      expected,
    );
    expect(contentHashOfBytes(utf8(`---\nvmark:\n  id: ${ID}\n---\nbody\n`))).toBe(`sha256:${sha('body\n')}`);
    expect(contentHashOfBytes(utf8(''))).toBe(`sha256:${sha('')}`);
  });

  it('ignores identity lines but not other changes', () => {
    const base = '---\ntitle: Elena\n---\n# Elena\n';
    const h = contentHashOfBytes(utf8(base));
    expect(contentHashOfBytes(utf8(`---\ntitle: Elena\nvmark:\n  id: ${ID}\n---\n# Elena\n`))).toBe(h);
    expect(contentHashOfBytes(utf8(`---\nvmark:\n  schema: x\ntitle: Elena\n---\n# Elena\n`))).toBe(h);
    expect(contentHashOfBytes(utf8('---\ntitle: Elena \n---\n# Elena\n'))).not.toBe(h);
    expect(contentHashOfBytes(utf8('---\ntitle: Elena\n---\n# Elena'))).not.toBe(h);
    expect(
      contentHashOfBytes(utf8(`---\ntitle: Elena\nvmark:\n  id: ${ID}\n  note: n\n---\n# Elena\n`)),
    ).not.toBe(h);
  });

  it('hashes raw bytes for binary content', () => {
    const raw = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0xff, 0x0d, 0x0a]);
    expect(contentHashOfBytes(raw)).toBe(`sha256:${sha(raw)}`);
    expect(contentHash({ kind: 'binary' }, raw)).toBe(`sha256:${sha(raw)}`);
    expect(isContentHash(contentHashOfBytes(raw))).toBe(true);
  });
});

describe('revisionId', () => {
  const ch = `sha256:${sha('body\n')}`;
  const pA = `rev1:${'a'.repeat(64)}`;
  const pB = `rev1:${'b'.repeat(64)}`;
  const p0 = `rev1:${'0'.repeat(63)}1`;

  it('root revision: "vmark-rev\\n" + content_hash + "\\n", no parent lines', () => {
    const preimage = `vmark-rev\n${ch}\n`;
    expect(revisionPreimage(ch, [])).toBe(preimage);
    expect(revisionId(ch, [])).toBe(`rev1:${sha(preimage)}`);
  });

  it('every parent, the last included, is followed by "\\n"; parents sorted', () => {
    expect(revisionId(ch, [pA])).toBe(`rev1:${sha(`vmark-rev\n${ch}\n${pA}\n`)}`);
    const merge = `vmark-rev\n${ch}\n${p0}\n${pA}\n${pB}\n`;
    expect(revisionId(ch, [pB, p0, pA])).toBe(`rev1:${sha(merge)}`);
    // Not the variants without the trailing newline or without sorting.
    expect(revisionId(ch, [pA])).not.toBe(`rev1:${sha(`vmark-rev\n${ch}\n${pA}`)}`);
    expect(revisionId(ch, [pB, pA])).not.toBe(`rev1:${sha(`vmark-rev\n${ch}\n${pB}\n${pA}\n`)}`);
  });

  it('pins literal vectors', () => {
    // Digests of the literal preimages above, computed once with `sha256sum`, to catch a
    // change in both code and test helper at once.
    const root = revisionId(`sha256:${sha('')}`, []);
    expect(root).toBe(
      `rev1:${sha(`vmark-rev\nsha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855\n`)}`,
    );
    expect(root).toBe('rev1:9fae81ab7838072dc23228d15125bbb17190994b04ebfa53cd53be2ef305d69f');
    expect(revisionId(`sha256:${sha('')}`, [root])).toBe(
      'rev1:74f4b3da4577c9a8f17595edcf807c06f2f29a764a8de52113673e45a36109aa',
    );
  });

  it('does not depend on parent order', () => {
    const parents = [pA, pB, p0];
    const id = revisionId(ch, parents);
    expect(revisionId(ch, [...parents].reverse())).toBe(id);
    expect(revisionId(ch, [pB, p0, pA])).toBe(id);
    expect(isRevisionId(id)).toBe(true);
    expect(revisionId(ch, [pA, pB])).not.toBe(id);
  });

  it('A → B → A gives a new revision for the same content', () => {
    const a = revisionId(ch, []);
    const b = revisionId(`sha256:${sha('other')}`, [a]);
    expect(revisionId(ch, [b])).not.toBe(a);
  });

  it('rejects malformed inputs', () => {
    expect(() => revisionId('sha256:xyz', [])).toThrow(RangeError);
    expect(() => revisionId(ch, ['rev-a1b2c3'])).toThrow(RangeError);
  });
});
