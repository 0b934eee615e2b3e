import { describe, expect, it } from 'vitest';
import { boundOutput, OUTPUT_BOUND_BYTES } from './output-bound.js';

const bytes = (s: string) => Buffer.byteLength(s, 'utf8');

describe('boundOutput', () => {
  it('passes results under the bound through as pretty JSON', () => {
    const out = boundOutput({ content: 'hello' });
    expect(out).toEqual({ truncated: false, text: JSON.stringify({ content: 'hello' }, null, 2) });
  });

  it('counts bytes, not characters, once a text could be over the bound: three-byte characters at its edge', () => {
    // `"中…"` is k + 2 characters and 3k + 2 bytes: short enough to pass uncounted up to k = 8.
    const bound = 30;
    for (const k of [8, 9]) {
      const text = JSON.stringify('中'.repeat(k));
      expect(boundOutput('中'.repeat(k), undefined, bound)).toEqual({ truncated: false, text });
    }
    const over = boundOutput('中'.repeat(10), undefined, bound);
    expect(over.truncated).toBe(true);
    if (over.truncated) expect(over.envelope.bytes_total).toBe(32);
  });

  it('replaces a result over the bound with an envelope that fits the bound', () => {
    const out = boundOutput({ content: 'x'.repeat(200_000) }, 'use selection.get');
    expect(out.truncated).toBe(true);
    if (!out.truncated) return;
    expect(bytes(out.text)).toBeLessThanOrEqual(OUTPUT_BOUND_BYTES);
    expect(bytes(out.text)).toBeGreaterThan(OUTPUT_BOUND_BYTES - 200);
    expect(out.envelope.bytes_total).toBe(bytes(JSON.stringify({ content: 'x'.repeat(200_000) }, null, 2)));
    expect(out.envelope.bytes_shown).toBe(bytes(out.envelope.preview));
    expect(out.envelope.truncation_note).toMatch(/^=== \[VMark MCP\] OUTPUT TRUNCATED === /);
    expect(out.envelope.truncation_note).toContain('To get the rest: use selection.get');
    expect(JSON.parse(out.text)).toEqual(out.envelope);
  });

  it('never cuts inside a code point and drops a trailing zero-width joiner', () => {
    const family = '👩\u200d👩\u200d👧';
    for (const filler of ['中', '😀', family, 'é']) {
      const out = boundOutput(filler.repeat(60_000));
      if (!out.truncated) throw new Error('expected truncation');
      expect(out.envelope.preview).not.toMatch(/\uFFFD|\u200d$/u);
      expect(Buffer.from(out.envelope.preview, 'utf8').toString('utf8')).toBe(out.envelope.preview);
    }
  });

  it('gives a preview that never parses as JSON', () => {
    for (const data of [
      { a: 'b'.repeat(100_000) },
      Array.from({ length: 40_000 }, (_, i) => i),
      'q'.repeat(90_000),
    ]) {
      const out = boundOutput(data);
      if (!out.truncated) throw new Error('expected truncation');
      expect(() => JSON.parse(out.envelope.preview) as unknown).toThrow();
    }
  });

  it('keeps quotes and backslashes escaped within the bound', () => {
    const out = boundOutput({ text: '"\\'.repeat(50_000) });
    expect(bytes(out.text)).toBeLessThanOrEqual(OUTPUT_BOUND_BYTES);
  });
});
