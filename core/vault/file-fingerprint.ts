/**
 * Content fingerprints, so that a save can tell whether the file on disk changed
 * since this host last read or wrote it (another process, another host, `git
 * checkout`) and report a conflict instead of overwriting (DESIGN §4).
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { errorCode } from './error-code.js';

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
