import { describe, expect, it } from 'vitest';

import { canonicalize, canonicalizeString } from './canonical-text.js';

const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);

describe('canonicalize', () => {
  it('turns CRLF and lone CR into LF and changes nothing else', () => {
    expect(canonicalize(utf8('a\r\nb\rc\n\r\n  trailing  \t\r'))).toEqual({
      kind: 'text',
      text: 'a\nb\nc\n\n  trailing  \t\n',
    });
    expect(canonicalize(utf8('no final newline'))).toEqual({ kind: 'text', text: 'no final newline' });
    expect(canonicalize(new Uint8Array())).toEqual({ kind: 'text', text: '' });
  });

  it('normalises to NFC', () => {
    const nfd = 'Cafe\u0301 \u1100\u1161';
    expect(canonicalize(utf8(nfd))).toEqual({ kind: 'text', text: 'Caf\u00e9 \uac00' });
    expect(canonicalizeString('e\u0301\r\n')).toBe('\u00e9\n');
  });

  it('treats invalid UTF-8 as binary', () => {
    expect(canonicalize(new Uint8Array([0x61, 0xff, 0x62]))).toEqual({ kind: 'binary' });
    expect(canonicalize(new Uint8Array([0xc0, 0xaf]))).toEqual({ kind: 'binary' }); // overlong
    expect(canonicalize(new Uint8Array([0xed, 0xa0, 0x80]))).toEqual({ kind: 'binary' }); // surrogate
    expect(canonicalize(new Uint8Array([0xe2, 0x82]))).toEqual({ kind: 'binary' }); // truncated
    expect(canonicalize(new Uint8Array([0x00, 0x01]))).toEqual({ kind: 'text', text: '\u0000\u0001' });
  });

  it('keeps a UTF-8 byte order mark as content (the original does not strip it)', () => {
    expect(canonicalize(new Uint8Array([0xef, 0xbb, 0xbf, 0x61, 0x0d, 0x0a]))).toEqual({
      kind: 'text',
      text: '\uFEFFa\n',
    });
  });
});
