/**
 * How far a reader got in each ledger segment, as something that can be kept on disk and
 * checked later without reading the ledger: the segment's name and size, the offset after its
 * last complete line, and a hash of the bytes just before that offset. A segment that was
 * appended to, truncated, rolled back or replaced no longer matches its mark (ADR 46).
 */
import { createHash } from 'node:crypto';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { errorCode } from '@vmark/sdk';
import { listSegments } from './ledger-merge.js';
import { ledgerDir } from './segments.js';

export interface SegmentMark {
  readonly name: string;
  /** File size when read, a torn tail included. */
  readonly size: number;
  /** Offset just after the last complete line read. */
  readonly parsed: number;
  /** Bytes before `parsed` that `tail` hashes. */
  readonly tailLength: number;
  /** `sha256` hex of those bytes. */
  readonly tail: string;
}

export const markTail = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

/** Whether the ledger's segments are exactly those marked, each as it was when marked. */
export async function segmentsMatch(vmarkDir: string, marks: readonly SegmentMark[]): Promise<boolean> {
  const dir = ledgerDir(vmarkDir);
  const names = await listSegments(dir);
  if (names.length !== marks.length || names.some((n, i) => n !== marks[i]?.name)) return false;
  for (const mark of marks) {
    let handle;
    try {
      handle = await open(join(dir, mark.name), 'r');
    } catch (error) {
      if (errorCode(error) === 'ENOENT') return false;
      throw error;
    }
    try {
      const info = await handle.stat();
      if (!info.isFile() || info.size !== mark.size || mark.tailLength > mark.parsed) return false;
      const bytes = Buffer.alloc(mark.tailLength);
      const { bytesRead } = await handle.read(bytes, 0, mark.tailLength, mark.parsed - mark.tailLength);
      if (bytesRead !== mark.tailLength || markTail(bytes) !== mark.tail) return false;
    } finally {
      await handle.close();
    }
  }
  return true;
}
