import { open } from 'node:fs/promises';
import { DomainError } from '@vmark/sdk';
import { type DiskState, diskStateOf } from '../vault/file-fingerprint.js';

/** Larger files are refused: a Markdown editor has no use for them and they would exhaust memory. */
export const MAX_DOCUMENT_BYTES = 64 * 1024 * 1024;

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Reads a text file as a document: UTF-8 only, bounded in size, with the disk
 * state of exactly the bytes read (one handle for the stat and the read).
 * @throws DomainError `INVALID_PATH`.
 */
export async function readTextFile(canonicalPath: string): Promise<{ content: string; disk: DiskState }> {
  const quoted = JSON.stringify(canonicalPath);
  const handle = await open(canonicalPath, 'r').catch(() => null);
  if (handle === null) throw new DomainError('INVALID_PATH', `${quoted} is not a readable file`);
  try {
    const stats = await handle.stat({ bigint: true });
    if (!stats.isFile()) throw new DomainError('INVALID_PATH', `${quoted} is not a readable file`);
    if (stats.size > MAX_DOCUMENT_BYTES) {
      throw new DomainError('INVALID_PATH', `${quoted} is larger than ${MAX_DOCUMENT_BYTES} bytes`);
    }
    const bytes = await handle.readFile();
    try {
      return { content: utf8.decode(bytes), disk: diskStateOf(stats, bytes) };
    } catch {
      throw new DomainError('INVALID_PATH', `${quoted} is not UTF-8 text`);
    }
  } finally {
    await handle.close();
  }
}
