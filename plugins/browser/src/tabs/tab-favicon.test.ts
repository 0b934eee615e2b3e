import { describe, expect, it } from 'vitest';
import { faviconDataUrl, faviconType, MAX_FAVICON_BYTES } from './tab-favicon.js';

/* What a page hands over as its icon is judged by its bytes and its size alone (ADR 56). */

const bytes = (...values: (number | string)[]) =>
  Buffer.concat(values.map((v) => (typeof v === 'string' ? Buffer.from(v, 'latin1') : Buffer.from([v]))));

describe('a favicon', () => {
  it('is one of the picture types the strip takes, by its first bytes', () => {
    expect(faviconType(bytes(0x89, 'PNG\r\n\x1a\n', 0))).toBe('image/png');
    expect(faviconType(bytes(0, 0, 1, 0, 1, 0))).toBe('image/x-icon');
    expect(faviconType(bytes('GIF89a', 1))).toBe('image/gif');
    expect(faviconType(bytes(0xff, 0xd8, 0xff, 0xe0))).toBe('image/jpeg');
    expect(faviconType(bytes('RIFF', 0, 0, 0, 0, 'WEBPVP8 '))).toBe('image/webp');
  });

  it('is refused when it is SVG, HTML, a cursor, truncated or empty', () => {
    for (const refused of [
      bytes('<svg xmlns="http://www.w3.org/2000/svg"/>'),
      bytes('<?xml version="1.0"?><svg/>'),
      bytes('<script>alert(1)</script>'),
      bytes(0, 0, 2, 0, 1, 0),
      bytes(0x89, 'PN'),
      bytes('RIFF', 0, 0, 0, 0, 'WAVE'),
      bytes(),
    ])
      expect(faviconType(refused)).toBeNull();
  });

  it('becomes a data: URL of its own bytes only within the bound, and only from base64 text', () => {
    const png = bytes(0x89, 'PNG\r\n\x1a\n', 'rest');
    expect(faviconDataUrl(png.toString('base64'))).toBe(`data:image/png;base64,${png.toString('base64')}`);
    const big = Buffer.concat([png, Buffer.alloc(MAX_FAVICON_BYTES)]);
    expect(faviconDataUrl(big.toString('base64'))).toBeNull();
    expect(
      faviconDataUrl(Buffer.concat([png, Buffer.alloc(MAX_FAVICON_BYTES - png.length)]).toString('base64')),
    ).toMatch(/^data:image\/png;base64,/);
    for (const odd of [null, 42, '', { bytes: 'x' }]) expect(faviconDataUrl(odd)).toBeNull();
  });
});
