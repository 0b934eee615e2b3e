import { describe, expect, it } from 'vitest';
import { type CheckpointEntry, parseEntry, serializeEntry } from './checkpoint-entry.js';

const ENTRY: CheckpointEntry = {
  id: 'ckpt-0000000000000001a',
  createdAt: '2026-01-02T03:04:05.000Z',
  tabId: null,
  filePath: '/home/me/notes.md',
  tool: 'document.write',
  description: 'Wrote document',
  revisionBefore: 'rev-AAAAAAAA',
  revisionAfter: 'rev-BBBBBBBB',
  bytesBefore: 12,
};

describe('parseEntry', () => {
  it('reads back what serializeEntry writes, field for field', () => {
    const line = serializeEntry(ENTRY);
    expect(parseEntry(line)).toEqual(ENTRY);
    expect(JSON.stringify(parseEntry(line))).toBe(line);
  });

  it.each([
    ['a torn line', serializeEntry(ENTRY).slice(0, 40)],
    ['an id that is not a checkpoint id', JSON.stringify({ ...ENTRY, id: '../index.jsonl' })],
    ['no tab field', JSON.stringify({ ...ENTRY, tabId: undefined })],
    ['a file path that is a number', JSON.stringify({ ...ENTRY, filePath: 7 })],
    ['a negative size', JSON.stringify({ ...ENTRY, bytesBefore: -1 })],
    ['a fractional size', JSON.stringify({ ...ENTRY, bytesBefore: 1.5 })],
    ['a size past 2^53', JSON.stringify({ ...ENTRY, bytesBefore: 2 ** 53 })],
    ['not an object', '"ckpt-0000000000000001a"'],
  ])('skips %s', (_name, line) => {
    expect(parseEntry(line)).toBeUndefined();
  });
});
