/**
 * Content fingerprints, so that a save can tell whether the file on disk changed
 * since this host last read or wrote it (another process, another host, `git
 * checkout`) and report a conflict instead of overwriting (DESIGN §4).
 */
import { createHash } from 'node:crypto';
import { type BigIntStats, createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { errorCode } from './error-code.js';

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
 * file; otherwise the bytes are hashed, so a mere `touch` is not a conflict.
 */
export async function changedOnDisk(file: string, known: DiskState | null): Promise<boolean> {
  const now = await stat(file, { bigint: true }).catch((error: unknown) => {
    if (errorCode(error) === 'ENOENT' || errorCode(error) === 'ENOTDIR') return null;
    throw error;
  });
  if (now === null || known === null) return now !== known;
  if (now.size === known.size && now.mtimeNs === known.mtimeNs && now.ino === known.ino) return false;
  return (await readFingerprint(file)) !== known.sha256;
}

/** SHA-256 of the bytes, lowercase hex. A string is hashed as its UTF-8 bytes, as it is saved. */
export function fingerprint(bytes: Uint8Array | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** The fingerprint of the file's current bytes, or `null` when there is no such file. */
export async function readFingerprint(file: string): Promise<string | null> {
  const hash = createHash('sha256');
  try {
    // Streamed: documents may be large, and only the digest is needed.
    for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  } catch (error) {
    const code = errorCode(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    throw error;
  }
  return hash.digest('hex');
}
