/**
 * Content fingerprints, so that a save can tell whether the file on disk changed
 * since this host last read or wrote it (another process, another host, `git
 * checkout`) and report a conflict instead of overwriting (DESIGN §4).
 */
import { createHash } from 'node:crypto';
import { type BigIntStats, lstatSync } from 'node:fs';
import { openRegularFile } from './open-regular-file.js';

/** What the host knows of a file it read or wrote: a stat signature, and the hash of its bytes. */
export interface DiskState {
  readonly size: bigint;
  readonly mtimeNs: bigint;
  readonly ino: bigint;
  readonly sha256: string;
}

export function diskStateOf(stats: BigIntStats, bytes: Uint8Array): DiskState {
  return { size: stats.size, mtimeNs: stats.mtimeNs, ino: stats.ino, sha256: fingerprint(bytes) };
}

/**
 * Whether the file no longer holds the bytes `known` describes (`null`: no file
 * was expected there). An unchanged stat signature settles it without reading the
 * file; otherwise the bytes are hashed, so a mere `touch` is not a conflict. Anything
 * but a regular file (a pipe put in its place, a folder) counts as a change, unread.
 */
export async function changedOnDisk(file: string, known: DiskState | null): Promise<boolean> {
  // The common answer, "the file is as the host left it", from one synchronous lstat (ADR 47):
  // a regular file at the name with the known inode, size and mtime. Anything else is looked into.
  if (known !== null && holdsStamp(file, known)) return false;
  const opened = await openRegularFile(file);
  if (opened.kind !== 'file') return known !== null;
  try {
    if (known === null) return true;
    const now = opened.stats;
    if (now.size === known.size && now.mtimeNs === known.mtimeNs && now.ino === known.ino) return false;
    const hash = createHash('sha256');
    // Streamed: documents may be large, and only the digest is needed.
    for await (const chunk of opened.handle.createReadStream({ autoClose: false, start: 0 }))
      hash.update(chunk as Buffer);
    return hash.digest('hex') !== known.sha256;
  } finally {
    await opened.handle.close();
  }
}

function holdsStamp(file: string, known: DiskState): boolean {
  try {
    const now = lstatSync(file, { bigint: true });
    return now.isFile() && now.ino === known.ino && now.size === known.size && now.mtimeNs === known.mtimeNs;
  } catch {
    return false;
  }
}

/** SHA-256 of the bytes, lowercase hex. A string is hashed as its UTF-8 bytes, as it is saved. */
export function fingerprint(bytes: Uint8Array | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}
