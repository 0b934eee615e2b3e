import { describe, expect, it } from 'vitest';
import { documentTextOf } from './document-text-bytes.js';

const bytesOf = (text: string): ArrayBuffer => new TextEncoder().encode(text).buffer;

describe('documentTextOf', () => {
  it('keeps a leading U+FEFF, a character of the host’s text', () => {
    const text = '\uFEFF# Title\n\n漢字 😀\n';
    expect(documentTextOf(bytesOf(text))).toBe(text);
    expect(documentTextOf(bytesOf(text))).toHaveLength(text.length);
  });

  it('gives the text of any UTF-8 the host sends, unchanged', () => {
    for (const text of ['', 'a\r\nb', '\uFEFF\uFEFFtwo marks', 'end \uFEFF'])
      expect(documentTextOf(bytesOf(text))).toBe(text);
  });
});
