import { describe, expect, it } from 'vitest';
import type { LedgerEntry } from '../ledger/index.js';
import { buildObjectIndex } from './object-index.js';

const uuid = (n: number): string => `0190b000-0000-7000-8000-${n.toString(16).padStart(12, '0')}`;
const rev = (n: number): string => `rev1:${n.toString(16).padStart(64, '0')}`;
const hash = (n: number): string => `sha256:${n.toString(16).padStart(64, '0')}`;
const A = uuid(0xa1);
const B = uuid(0xb1);

let seq = 0;
function entry(kind: string, body: Record<string, unknown>): LedgerEntry {
  seq += 1;
  return {
    format: 0,
    id: uuid(0x1000 + seq),
    kind,
    time: new Date(Date.UTC(2026, 6, 18, 9, 0, seq)).toISOString(),
    writer: uuid(0xfff),
    idem: uuid(0x2000 + seq),
    body,
  };
}
const registered = (object: string, path: string, schema: string | null = null) =>
  entry('object-registered', { object, path, schema, derived_from: [] });
const txf = (object: string, revision: string, content: string, parents: string[]) =>
  entry('transformation', {
    inputs: [],
    outputs: [{ object, revision, content_hash: content, parents }],
    agent: { type: 'human' },
    intent: { kind: 'save', summary: '' },
    confidence: 'exact',
  });

describe('buildObjectIndex', () => {
  it('takes the latest registered path, the heads, and every recorded content hash', () => {
    const index = buildObjectIndex([
      registered(A, 'old.md'),
      txf(A, rev(1), hash(1), []),
      txf(A, rev(2), hash(2), [rev(1)]),
      registered(A.toUpperCase(), 'new.md', 'character'),
    ]);
    expect(index.get(A)).toEqual({
      object: A,
      path: 'new.md',
      schema: 'character',
      heads: [{ revision: rev(2), contentHash: hash(2) }],
      contentHashes: new Set([hash(1), hash(2)]),
    });
  });

  it('knows objects named only by transformations (no path) and keeps every head of a fork', () => {
    const index = buildObjectIndex([
      txf(B, rev(1), hash(1), []),
      txf(B, rev(3), hash(3), [rev(1)]),
      txf(B, rev(2), hash(2), [rev(1)]),
    ]);
    expect(index.get(B)?.path).toBeNull();
    expect(index.get(B)?.heads).toEqual([
      { revision: rev(2), contentHash: hash(2) },
      { revision: rev(3), contentHash: hash(3) },
    ]);
  });

  it('lets observed paths override the ledger, and ignores other kinds', () => {
    const index = buildObjectIndex([registered(A, 'a.md'), entry('diagnostic', { code: 'x' })], {
      observedPaths: new Map([[A, 'moved/a.md']]),
    });
    expect([...index.keys()]).toEqual([A]);
    expect(index.get(A)).toEqual({
      object: A,
      path: 'moved/a.md',
      schema: null,
      heads: [],
      contentHashes: new Set(),
    });
  });
});
