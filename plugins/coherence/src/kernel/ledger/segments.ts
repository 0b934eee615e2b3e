/**
 * Where ledger lines live under `<workspace>/.vmark/` (vmark-notes §7.1): each writer appends
 * to `ledger/<writer-id>.jsonl`, rotating to `ledger/<writer-id>-<NNN>.jsonl`.
 */
import { join } from 'node:path';

export const LEDGER_DIR = 'ledger';
export const QUARANTINE_DIR = 'quarantine';
export const SEGMENT_SUFFIX = '.jsonl';

/** A segment rotates once it has reached this size. */
export const ROTATE_AT_BYTES = 8 * 1024 * 1024;

export function ledgerDir(vmarkDir: string): string {
  return join(vmarkDir, LEDGER_DIR);
}

export function quarantineDir(vmarkDir: string): string {
  return join(vmarkDir, LEDGER_DIR, QUARANTINE_DIR);
}

export function isSegmentName(name: string): boolean {
  return name.endsWith(SEGMENT_SUFFIX) && name.length > SEGMENT_SUFFIX.length;
}

/**
 * `<writer>.jsonl` → `<writer>.bad`. The digest writes `quarantine/<segment>.bad`; the segment
 * is taken to be the file's stem, so the name carries no double extension.
 */
export function quarantineFileName(segment: string): string {
  const stem = segment.endsWith(SEGMENT_SUFFIX) ? segment.slice(0, -SEGMENT_SUFFIX.length) : segment;
  return `${stem}.bad`;
}

/** Segment file name for a writer and rotation number (0 = the unsuffixed first segment). */
export function segmentName(writerId: string, rotation: number): string {
  if (rotation === 0) return `${writerId}${SEGMENT_SUFFIX}`;
  return `${writerId}-${String(rotation).padStart(3, '0')}${SEGMENT_SUFFIX}`;
}

/** Rotation number of `name` if it is one of `writerId`'s segments, else `null`. */
export function segmentRotation(writerId: string, name: string): number | null {
  if (name === `${writerId}${SEGMENT_SUFFIX}`) return 0;
  const prefix = `${writerId}-`;
  if (!name.startsWith(prefix) || !name.endsWith(SEGMENT_SUFFIX)) return null;
  const digits = name.slice(prefix.length, -SEGMENT_SUFFIX.length);
  // Zero-padded to three, wider once past 999.
  if (!/^\d{3,}$/.test(digits)) return null;
  const n = Number(digits);
  // Only the canonical spelling counts (`-0001` is not rotation 1), so names and numbers map 1:1.
  return n > 0 && segmentName(writerId, n) === name ? n : null;
}

/** Byte-wise name order, the same on every platform and locale. */
export function compareNames(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}
