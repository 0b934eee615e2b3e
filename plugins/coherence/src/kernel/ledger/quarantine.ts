/**
 * `ledger/quarantine/<segment>.bad`: malformed lines, each after a `# line N, <reason>` header,
 * each record appended once however often the segment is read.
 */
import { mkdir, open, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { quarantineDir, quarantineFileName } from './segments.js';
import { errorCode } from '@vmark/sdk';

export interface QuarantinedLine {
  readonly lineNumber: number;
  readonly reason: string;
  /** The line's bytes as found (without `\n`): it may not even be valid UTF-8. */
  readonly bytes: Buffer;
}

export function quarantineRecord(line: QuarantinedLine): Buffer {
  return Buffer.concat([
    Buffer.from(`# line ${line.lineNumber}, ${line.reason}\n`, 'utf8'),
    line.bytes,
    Buffer.from('\n'),
  ]);
}

/** Whether `record` already sits in `file` at a record boundary (file start or after `\n`). */
function holds(file: Buffer, record: Buffer): boolean {
  for (let at = file.indexOf(record); at !== -1; at = file.indexOf(record, at + 1)) {
    if (at === 0 || file[at - 1] === 0x0a) return true;
  }
  return false;
}

async function readIfPresent(path: string): Promise<Buffer> {
  try {
    return await readFile(path);
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return Buffer.alloc(0);
    throw error;
  }
}

/** Appends the records of `lines` not yet in the segment's quarantine file, in one write. */
export async function quarantineLines(
  vmarkDir: string,
  segment: string,
  lines: readonly QuarantinedLine[],
): Promise<void> {
  if (lines.length === 0) return;
  const dir = quarantineDir(vmarkDir);
  const path = join(dir, quarantineFileName(segment));
  await mkdir(dir, { recursive: true });
  const existing = await readIfPresent(path);
  const fresh: Buffer[] = [];
  for (const line of lines) {
    const record = quarantineRecord(line);
    if (holds(existing, record) || fresh.some((r) => r.equals(record))) continue;
    fresh.push(record);
  }
  if (fresh.length === 0) return;
  // An interrupted earlier append may have left a partial record; start on a fresh line.
  if (existing.length > 0 && existing[existing.length - 1] !== 0x0a) fresh.unshift(Buffer.from('\n'));
  const handle = await open(path, 'a');
  try {
    await handle.write(Buffer.concat(fresh));
    await handle.sync();
  } finally {
    await handle.close();
  }
}
