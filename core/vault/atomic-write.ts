/**
 * Crash-safe saves (DESIGN §4): the new bytes go to a temp file in the target's
 * folder, are fsynced, then renamed over the target. A reader (or a crash)
 * sees the old file or the new one, never a torn mix. The folder is not fsynced
 * after the rename: that would make the new name durable sooner, not the swap
 * more atomic, and it doubled the cost of a small save (docs/adr/0008).
 *
 * Pass the canonical real path (`resolveInScope`'s result): rename replaces
 * whatever is at that name, a symbolic link included, instead of following it.
 * The target gets a new inode, so hard links to it keep the old content.
 *
 * The looks at metadata (stat, fstat) are synchronous: each takes microseconds, where a trip
 * through libuv's thread pool costs a save far more on a busy machine (ADR 47). So are the temp
 * file's create and close, and the write of a small file (`SMALL_WRITE`, tens of microseconds
 * into the page cache; ADR 79), and the rename that ends `writeFileAtomic` (ADR 80: after the
 * fsync it was one more trip before a checkpoint's write could answer). The fsync, and the
 * write of a larger file, stay asynchronous: their time grows with the file and the disk.
 */
import {
  type BigIntStats,
  closeSync,
  fchmodSync,
  fchownSync,
  fstatSync,
  fsync,
  openSync,
  renameSync,
  rmSync,
  type Stats,
  statSync,
  write,
  writeSync,
} from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { DomainError } from '@vmark/sdk';
import { errorCode } from '@vmark/sdk';
import { invalidPath, quotePath } from './path-scope.js';
import { tempPathFor } from './temp-files.js';

/** A new version of a file, written and fsynced beside it, not yet renamed over it. */
export interface StagedFile {
  readonly temp: string;
  /** The temp file's stats; rename keeps its inode, size and mtime, so they describe the saved file. */
  readonly stats: BigIntStats;
}

/**
 * Replaces `target` with `data` atomically, keeping an existing file's mode
 * (and owner, where permitted). Leaves no temp file behind on failure.
 * @throws DomainError `INVALID_PATH` or `READ_ONLY` (see `inspectTarget`);
 *   other I/O errors are rethrown as they are.
 */
export async function writeFileAtomic(target: string, data: string | Uint8Array): Promise<BigIntStats> {
  const staged = await stageFile(target, data);
  try {
    renameSync(staged.temp, target);
  } catch (error) {
    try {
      rmSync(staged.temp, { force: true });
    } catch {
      // Left for the sweep of temp files at the next start (`sweep-temp-files.ts`).
    }
    throw error;
  }
  return staged.stats;
}

/**
 * Writes `data` to a new temp file beside `target` with the target's mode (and owner, where
 * permitted), fsynced, ready to be renamed over it. The caller renames or removes it.
 * Leaves no temp file behind on failure.
 * @throws DomainError `INVALID_PATH` or `READ_ONLY` (see `inspectTarget`).
 */
export async function stageFile(target: string, data: string | Uint8Array): Promise<StagedFile> {
  const existing = inspectTarget(target);
  const temp = tempPathFor(target);
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  const fd = openTemp(temp, target);
  try {
    await writeAll(fd, bytes);
    if (existing) keepIdentity(fd, existing);
    // Data on disk before the rename makes it visible, or a crash could leave an empty file.
    await fsyncAsync(fd);
    const stats = fstatSync(fd, { bigint: true });
    closeSync(fd);
    return { temp, stats };
  } catch (error) {
    try {
      closeSync(fd);
    } catch {
      // Already closed by the close that failed.
    }
    // Only our own temp file: `wx` failing with EEXIST (in openTemp) means the name is someone else's.
    try {
      rmSync(temp, { force: true });
    } catch {
      // The error that stopped the save is the one to report.
    }
    throw error;
  }
}

/** Up to this many bytes are written synchronously: into the page cache, tens of microseconds (ADR 79). */
const SMALL_WRITE = 64 * 1024;

const fsyncAsync = promisify(fsync);
const writeAsync = promisify(write);

/** Writes every byte of `bytes` at the start of the new file `fd`. */
async function writeAll(fd: number, bytes: Uint8Array): Promise<void> {
  let offset = 0;
  while (offset < bytes.length) {
    const length = bytes.length - offset;
    offset +=
      length <= SMALL_WRITE
        ? writeSync(fd, bytes, offset, length, offset)
        : (await writeAsync(fd, bytes, offset, length, offset)).bytesWritten;
  }
}

/**
 * The target's stats when it exists, `null` when it is a new file in an existing folder.
 * Refuses a save the host must not attempt: a missing folder, a folder or other non-file at the
 * target, or a file without any write permission bit — by mode bits rather than access(W_OK),
 * which always succeeds for root.
 * @throws DomainError `INVALID_PATH` or `READ_ONLY`.
 */
function inspectTarget(target: string): Stats | null {
  // The common cases without an error built and thrown: a file there, or a new file (every
  // checkpoint's) in an existing folder. Anything else is looked at again below, to say why.
  const found = commonCase(target);
  if (found !== undefined) return found;
  let stats: Stats;
  try {
    stats = statSync(target);
  } catch (error) {
    const code = errorCode(error);
    if (code === 'ENOENT') {
      assertFolder(target);
      return null;
    }
    if (code === 'ENOTDIR') throw invalidPath(target, 'cannot be saved: a part of its folder path is a file');
    throw error;
  }
  if (stats.isDirectory()) throw invalidPath(target, 'cannot be saved: it is a folder');
  if (!stats.isFile()) throw invalidPath(target, 'cannot be saved: it is not a regular file');
  if ((stats.mode & 0o222) === 0) {
    throw new DomainError(
      'READ_ONLY',
      `File ${quotePath(target)} is read-only (no write permission), so it was not saved`,
    );
  }
  return stats;
}

/** The target's stats, or null for a new file in an existing folder; undefined for anything else. */
function commonCase(target: string): Stats | null | undefined {
  try {
    const found = statSync(target, { throwIfNoEntry: false });
    if (found === undefined) {
      return statSync(path.dirname(target), { throwIfNoEntry: false })?.isDirectory() === true
        ? null
        : undefined;
    }
    return found.isFile() && (found.mode & 0o222) !== 0 ? found : undefined;
  } catch {
    // ENOTDIR and the like: `inspectTarget` looks again and says why.
    return undefined;
  }
}

function assertFolder(target: string): void {
  const folder = path.dirname(target);
  let stats: Stats;
  try {
    stats = statSync(folder);
  } catch (error) {
    if (errorCode(error) === 'ENOENT' || errorCode(error) === 'ENOTDIR') throw missingFolder(target);
    throw error;
  }
  if (!stats.isDirectory())
    throw invalidPath(target, `cannot be saved: ${quotePath(folder)} is not a folder`);
}

/** Creates the temp file: synchronous, a few microseconds like the looks around it (ADR 79). */
function openTemp(temp: string, target: string): number {
  try {
    // `wx`: never reuse or follow anything already at the temp name.
    return openSync(temp, 'wx');
  } catch (error) {
    switch (errorCode(error)) {
      case 'ENOENT':
        throw missingFolder(target);
      case 'EACCES':
      case 'EPERM':
      case 'EROFS':
        throw new DomainError(
          'READ_ONLY',
          `File ${quotePath(target)} was not saved: its folder is not writable`,
        );
      default:
        throw error;
    }
  }
}

function missingFolder(target: string): DomainError {
  return invalidPath(target, `cannot be saved: folder ${quotePath(path.dirname(target))} does not exist`);
}

/** Gives the replacement the permissions (and, where allowed, the owner) of the file it replaces. */
function keepIdentity(fd: number, existing: Stats): void {
  const created = fstatSync(fd);
  if (created.uid !== existing.uid || created.gid !== existing.gid) {
    try {
      fchownSync(fd, existing.uid, existing.gid);
    } catch {
      // Only root may give a file away; anyone else keeps ownership of what they write.
    }
  } else if ((created.mode & 0o7777) === (existing.mode & 0o7777)) {
    return;
  }
  // After chown, which may clear set-id bits.
  fchmodSync(fd, existing.mode & 0o7777);
}
