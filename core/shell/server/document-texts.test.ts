import { afterEach, describe, expect, it, vi } from 'vitest';
import { DOCUMENT_TEXT_PREFIX, DocumentTexts } from './document-texts.js';

afterEach(() => vi.useRealTimers());

describe('DocumentTexts', () => {
  it('gives an offered text once, at its own path', () => {
    const texts = new DocumentTexts();
    const bytes = new TextEncoder().encode('a ✓');
    const other = new TextEncoder().encode('b');
    const at = texts.offer(bytes);
    const otherAt = texts.offer(other);
    expect(at.startsWith(DOCUMENT_TEXT_PREFIX)).toBe(true);
    expect(at).not.toBe(otherAt);
    expect(texts.take(at)?.bytes).toBe(bytes);
    expect(texts.take(at)).toBeUndefined();
    expect(texts.take(otherAt)?.bytes).toBe(other);
  });

  it('hands back what to do once the text is sent, with the text', () => {
    const texts = new DocumentTexts();
    const sent: string[] = [];
    const at = texts.offer(new Uint8Array([0x61]), () => sent.push('a'));
    const taken = texts.take(at)!;
    expect(sent).toEqual([]);
    taken.sent();
    expect(sent).toEqual(['a']);
  });

  it('gives nothing at a path it did not offer', () => {
    const texts = new DocumentTexts();
    const at = texts.offer(new Uint8Array([0x61]));
    expect(texts.take(`${DOCUMENT_TEXT_PREFIX}not-a-key`)).toBeUndefined();
    expect(texts.take(at.slice(DOCUMENT_TEXT_PREFIX.length))).toBeUndefined();
    expect(texts.take(`/elsewhere/${at.slice(DOCUMENT_TEXT_PREFIX.length)}`)).toBeUndefined();
  });

  it('lets go of a text nobody fetched, and of every text when disposed', () => {
    vi.useFakeTimers();
    const texts = new DocumentTexts();
    const late = texts.offer(new Uint8Array([0x61]));
    vi.advanceTimersByTime(59_000);
    const kept = texts.offer(new Uint8Array([0x62]));
    vi.advanceTimersByTime(1_000);
    expect(texts.take(late)).toBeUndefined();
    expect(texts.take(kept)?.bytes).toEqual(new Uint8Array([0x62]));
    const disposedBefore = texts.offer(new Uint8Array([0x63]));
    texts.dispose();
    expect(texts.take(disposedBefore)).toBeUndefined();
  });
});
