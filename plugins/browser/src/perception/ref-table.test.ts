import { describe, expect, it } from 'vitest';
import { isTokenError } from '@vmark/sdk';
import type { FrameDocument } from './page-frames.js';
import { RefTable } from './ref-table.js';

/* The host's half of refs: numbering across documents, and refusing refs of an earlier generation. */

const main = { frameId: 'main' } as FrameDocument;
const frame = { frameId: 'child' } as FrameDocument;

/** What a world answers: refs numbered from `next`, `count` of them new. */
const world = (count: number) => (next: number) =>
  Promise.resolve({ refs: Array.from({ length: count }, (_, i) => `e${next + i}`), next: next + count });

function refused(run: () => unknown): { token: string; message: string } {
  try {
    run();
  } catch (error) {
    if (isTokenError(error)) return { token: error.token, message: error.message };
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('RefTable', () => {
  it('numbers refs across the documents of a page, and finds each ref its document', async () => {
    const table = new RefTable();
    await table.allocate(1, main, world(3), (a) => a.refs);
    await table.allocate(1, frame, world(2), (a) => a.refs);
    expect(table.locate(1, 'e1')).toBe(main);
    expect(table.locate(1, 'e3')).toBe(main);
    expect(table.locate(1, 'e4')).toBe(frame);
    expect(table.locate(1, 'e5')).toBe(frame);
  });

  it('hands out numbers one document at a time, so two concurrent reads never share one', async () => {
    const table = new RefTable();
    const slow = (next: number) =>
      new Promise<{ refs: string[]; next: number }>((resolve) =>
        setTimeout(() => resolve({ refs: [`e${next}`], next: next + 1 }), 20),
      );
    const [a, b] = await Promise.all([
      table.allocate(1, main, slow, (x) => x.refs),
      table.allocate(1, frame, slow, (x) => x.refs),
    ]);
    expect([a.refs, b.refs]).toEqual([['e1'], ['e2']]);
  });

  it('refuses a ref of an earlier generation as STALE_REF, and never reuses its number', async () => {
    const table = new RefTable();
    await table.allocate(1, main, world(2), (a) => a.refs);
    const later = await table.allocate(2, main, world(1), (a) => a.refs);
    expect(later.refs).toEqual(['e3']);
    expect(refused(() => table.locate(2, 'e1'))).toMatchObject({
      token: 'STALE_REF',
      message: expect.stringContaining('earlier page generation') as string,
    });
    expect(table.locate(2, 'e3')).toBe(main);
  });

  it('refuses refs never given out, and strings that are no refs, as UNKNOWN_REF', async () => {
    const table = new RefTable();
    await table.allocate(1, main, world(1), (a) => a.refs);
    expect(refused(() => table.locate(1, 'e99')).token).toBe('UNKNOWN_REF');
    for (const bad of ['', 'E1', 'e0', 'e1x', 'button', 'e01'])
      expect(refused(() => table.locate(1, bad)).token).toBe('UNKNOWN_REF');
  });

  it('drops the refs a world answered with after the generation changed under it', async () => {
    const table = new RefTable();
    const pending = table.allocate(1, main, world(1), (a) => a.refs);
    expect(refused(() => table.locate(2, 'e5')).token).toBe('UNKNOWN_REF');
    await pending;
    expect(refused(() => table.locate(2, 'e1')).token).toBe('UNKNOWN_REF');
  });
});
