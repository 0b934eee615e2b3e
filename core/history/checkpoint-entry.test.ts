import { describe, expect, it } from 'vitest';
import { crc32 } from 'node:zlib';
import {
  type CheckpointEntry,
  parseCheckpointFile,
  parseEntry,
  serializeCheckpointFile,
  serializeEntry,
} from './checkpoint-entry.js';

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

describe('parseCheckpointFile', () => {
  const text = 'a text 第\n';
  const entry = { ...ENTRY, bytesBefore: Buffer.byteLength(text) };

  it('reads back what serializeCheckpointFile writes, the CRC-32 left out of the entry', () => {
    const file = serializeCheckpointFile(entry, text);
    expect(file.split('\n', 1)[0]).toBe(`${serializeEntry(entry).slice(0, -1)},"crc32":${crc32(text)}}`);
    expect(parseCheckpointFile(entry.id, file)).toEqual({ ...entry, contentBefore: text });
  });

  it('still reads a file written before ADR 102, without a CRC-32', () => {
    expect(parseCheckpointFile(entry.id, `${serializeEntry(entry)}\n${text}`)).toEqual({
      ...entry,
      contentBefore: text,
    });
  });

  it('refuses a text of the right size that is not the one its CRC-32 was taken of (half old pages)', () => {
    const file = serializeCheckpointFile(entry, text);
    const other = file.replace('a text', 'A TEXT');
    expect(Buffer.byteLength(other)).toBe(Buffer.byteLength(file));
    expect(parseCheckpointFile(entry.id, other)).toBeUndefined();
  });

  it.each([
    ['another id', (file: string) => file, 'ckpt-0000000000000002a'],
    ['a torn first line', (file: string) => file.slice(0, 30), ENTRY.id],
    ['a text cut short', (file: string) => file.slice(0, -1), ENTRY.id],
    ['a CRC-32 that is not a number', (file: string) => file.replace(/"crc32":\d+/, '"crc32":"1"'), ENTRY.id],
  ])('refuses %s', (_name, damage, id) => {
    expect(parseCheckpointFile(id, damage(serializeCheckpointFile(entry, text)))).toBeUndefined();
  });
});
