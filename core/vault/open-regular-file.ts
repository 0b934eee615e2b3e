/**
 * Opens a file for reading only if it is a regular file, without ever blocking: `open()` on a
 * named pipe waits for a writer, and five such waits tie up every thread Node does file I/O
 * on, so that each later open and save of the host hangs. The type is looked at before the
 * open (so a device is never opened at all), and again on the open handle (so a file swapped
 * for a pipe in between is caught); O_NONBLOCK makes that open return at once for a pipe.
 */
import type { BigIntStats } from 'node:fs';
import { constants, fstatSync, lstatSync } from 'node:fs';
import fs, { type FileHandle } from 'node:fs/promises';
import { errorCode } from '@vmark/sdk';

export type NotAFile = 'folder' | 'fifo' | 'socket' | 'device' | 'symlink' | 'other';

export type OpenedFile =
  | { readonly kind: 'file'; readonly handle: FileHandle; readonly stats: BigIntStats }
  | { readonly kind: 'missing' }
  | { readonly kind: 'not-a-file'; readonly type: NotAFile };

// Absent on Windows, where the flags mean nothing for these cases.
const NO_BLOCK = (constants.O_NONBLOCK ?? 0) | (constants.O_NOFOLLOW ?? 0);

/** What kind of thing a stat describes, for one that is not a regular file. */
export function notAFileType(stats: BigIntStats): NotAFile {
  if (stats.isDirectory()) return 'folder';
  if (stats.isFIFO()) return 'fifo';
  if (stats.isSocket()) return 'socket';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'device';
  if (stats.isSymbolicLink()) return 'symlink';
  return 'other';
}

/**
 * Opens `file` (a canonical path) read-only. The caller closes the handle.
 * @throws the file system's error for anything but a missing file (EACCES, EIO, …).
 */
export async function openRegularFile(file: string): Promise<OpenedFile> {
  let before: BigIntStats;
  try {
    // Synchronous looks: microseconds, where a thread-pool trip costs a save more (ADR 47).
    before = lstatSync(file, { bigint: true });
  } catch (error) {
    if (isMissing(error)) return { kind: 'missing' };
    throw error;
  }
  if (!before.isFile()) return { kind: 'not-a-file', type: notAFileType(before) };
  let handle: FileHandle;
  try {
    handle = await fs.open(file, constants.O_RDONLY | NO_BLOCK);
  } catch (error) {
    if (isMissing(error)) return { kind: 'missing' };
    // O_NOFOLLOW: a symbolic link put in its place since the lstat.
    if (errorCode(error) === 'ELOOP') return { kind: 'not-a-file', type: 'symlink' };
    throw error;
  }
  const stats = fstatSync(handle.fd, { bigint: true });
  if (!stats.isFile()) {
    await handle.close();
    return { kind: 'not-a-file', type: notAFileType(stats) };
  }
  return { kind: 'file', handle, stats };
}

/** Every byte of the open file from its start, whatever has been read from the handle before. */
export async function readWholeFile(handle: FileHandle): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let position = 0;
  // Sized by the file, plus room to notice that it grew while being read.
  let chunk = Buffer.allocUnsafe(Number(fstatSync(handle.fd, { bigint: true }).size) + 1);
  for (;;) {
    const { bytesRead } = await handle.read(chunk, 0, chunk.length, position);
    if (bytesRead === 0) break;
    chunks.push(chunk.subarray(0, bytesRead));
    position += bytesRead;
    chunk = Buffer.allocUnsafe(1 << 16);
  }
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
}

function isMissing(error: unknown): boolean {
  const code = errorCode(error);
  return code === 'ENOENT' || code === 'ENOTDIR';
}
