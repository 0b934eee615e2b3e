import { describe, expect, it } from 'vitest';
import { contentHashOfBytes } from '../identity/index.js';
import { digestFile, digestOf } from './file-digest.js';

const A = '0190b000-0000-7000-8000-0000000000A1';
const enc = (text: string): Uint8Array => new TextEncoder().encode(text);

describe('digestFile', () => {
  it('reads the identity (lower-cased), the schema and the masked content hash', () => {
    const text = `---\ntitle: T\nvmark:\n  id: ${A}\n  schema: character\n---\nbody\n`;
    expect(digestFile(enc(text))).toEqual({
      id: A.toLowerCase(),
      schema: 'character',
      contentHash: contentHashOfBytes(enc(text)),
    });
    // The hash is of the identity-masked canonical text: the id lines do not count.
    expect(digestFile(enc(text))?.contentHash).toBe(contentHashOfBytes(enc('---\ntitle: T\n---\nbody\n')));
  });

  it('is null for a file that is no object: no id, or not UTF-8', () => {
    expect(digestFile(enc('# just notes\n'))).toBeNull();
    expect(digestFile(new Uint8Array([0x2d, 0xff, 0xfe]))).toBeNull();
  });
});

describe('digestOf', () => {
  it('prefers the digest a walk brought along, else computes it from the bytes', () => {
    const bytes = enc(`---\nvmark:\n  id: ${A}\n---\nx\n`);
    const carried = { id: 'carried', schema: null, contentHash: 'sha256:00' };
    expect(digestOf({ bytes, digest: carried })).toBe(carried);
    expect(digestOf({ digest: null })).toBeNull();
    expect(digestOf({ bytes })).toEqual(digestFile(bytes));
  });
});
