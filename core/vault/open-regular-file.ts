/**
 * Opens a file for reading only if it is a regular file, without ever blocking: `open()` on a
 * named pipe waits for a writer, and five such waits tie up every thread Node does file I/O
 * on, so that each later open and save of the host hangs. The type is looked at before the
 * open (so a device is never opened at all), and again on the open handle (so a file swapped
 * for a pipe in between is caught); O_NONBLOCK makes that open return at once for a pipe.
 */
import type { BigIntStats } from 'node:fs';
import { close, closeSync, constants, fstatSync, lstatSync, openSync, read } from 'node:fs';
import fs, { type FileHandle } from 'node:fs/promises';
import { promisify } from 'node:util';
import { errorCode } from '@vmark/sdk';

export type NotAFile = 'folder' | 'fifo' | 'socket' | 'device' | 'symlink' | 'other';

/** What an open found: a regular file open on `handle`, or why there is none. */
export type Opened<Handle> =
  | { readonly kind: 'file'; readonly handle: Handle; readonly stats: BigIntStats }
  | { readonly kind: 'missing' }
  | { readonly kind: 'not-a-file'; readonly type: NotAFile };

export type OpenedFile = Opened<FileHandle>;
/** A regular file open on a plain descriptor (`openRegularDescriptor`). */
export type OpenedDescriptor = Opened<number>;

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
  const unopened = lookBeforeOpening(file);
  if (unopened !== null) return unopened;
  let handle: FileHandle;
  try {
    handle = await fs.open(file, READ_FLAGS);
  } catch (error) {
    return openFailed(error);
  }
  const stats = fstatSync(handle.fd, { bigint: true });
  if (!stats.isFile()) {
    await handle.close();
    return { kind: 'not-a-file', type: notAFileType(stats) };
  }
  return { kind: 'file', handle, stats };
}

/**
 * `openRegularFile` on a plain descriptor, synchronously: with O_NONBLOCK an open returns at
 * once whatever is at the name, so it is a look of microseconds like the stats around it
 * (ADR 47), where a `FileHandle` costs a save a thread-pool trip, its promises and a second
 * trip to close it (ADR 98). The caller lets go of the descriptor with `releaseDescriptor`.
 * @throws the file system's error for anything but a missing file (EACCES, EIO, …).
 */
export function openRegularDescriptor(file: string): OpenedDescriptor {
  const unopened = lookBeforeOpening(file);
  if (unopened !== null) return unopened;
  let fd: number;
  try {
    fd = openSync(file, READ_FLAGS);
  } catch (error) {
    return openFailed(error);
  }
  const stats = fstatSync(fd, { bigint: true });
  if (!stats.isFile()) {
    closeSync(fd);
    return { kind: 'not-a-file', type: notAFileType(stats) };
  }
  return { kind: 'file', handle: fd, stats };
}

/**
 * Closes a descriptor from `openRegularDescriptor` on the thread pool, not waited for: the
 * close of the last descriptor of a version a save replaced frees its inode, which takes the
 * file system a while, and nothing needs to wait for it. A failure (already closed) is ignored.
 */
export function releaseDescriptor(fd: number): void {
  close(fd, () => undefined);
}

const READ_FLAGS = constants.O_RDONLY | NO_BLOCK;

/** The lstat before an open: a missing file or one that is not regular is never opened at all. */
function lookBeforeOpening(file: string): Opened<never> | null {
  let before: BigIntStats;
  try {
    // Synchronous looks: microseconds, where a thread-pool trip costs a save more (ADR 47).
    before = lstatSync(file, { bigint: true });
  } catch (error) {
    if (isMissing(error)) return { kind: 'missing' };
    throw error;
  }
  return before.isFile() ? null : { kind: 'not-a-file', type: notAFileType(before) };
}

function openFailed(error: unknown): Opened<never> {
  if (isMissing(error)) return { kind: 'missing' };
  // O_NOFOLLOW: a symbolic link put in its place since the lstat.
  if (errorCode(error) === 'ELOOP') return { kind: 'not-a-file', type: 'symlink' };
  throw error;
}

const readAsync = promisify(read);

/** Every byte of the file open on `fd` from its start, whatever has been read from it before. */
export async function readWholeFile(fd: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let position = 0;
  // Sized by the file, plus room to notice that it grew while being read.
  let chunk = Buffer.allocUnsafe(Number(fstatSync(fd, { bigint: true }).size) + 1);
  for (;;) {
    const { bytesRead } = await readAsync(fd, chunk, 0, chunk.length, position);
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
