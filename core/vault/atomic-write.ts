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
 * through libuv's thread pool costs a save far more on a busy machine (ADR 47). The data
 * itself (write, fsync) stays asynchronous, since its time grows with the file.
 */
import { type BigIntStats, fstatSync, type Stats, statSync } from 'node:fs';
import fs from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import path from 'node:path';
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
    await fs.rename(staged.temp, target);
  } catch (error) {
    await fs.rm(staged.temp, { force: true }).catch(() => undefined);
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
  let handle: FileHandle | undefined;
  let created = false;
  try {
    handle = await openTemp(temp, target);
    created = true;
    await handle.writeFile(data);
    if (existing) await keepIdentity(handle, existing);
    // Data on disk before the rename makes it visible, or a crash could leave an empty file.
    await handle.sync();
    const stats = fstatSync(handle.fd, { bigint: true });
    await handle.close();
    handle = undefined;
    return { temp, stats };
  } catch (error) {
    await handle?.close().catch(() => undefined);
    // Only our own temp file: `wx` failing with EEXIST means the name is someone else's.
    if (created) await fs.rm(temp, { force: true }).catch(() => undefined);
    throw error;
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

async function openTemp(temp: string, target: string): Promise<FileHandle> {
  try {
    // `wx`: never reuse or follow anything already at the temp name.
    return await fs.open(temp, 'wx');
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
async function keepIdentity(handle: FileHandle, existing: Stats): Promise<void> {
  const created = fstatSync(handle.fd);
  if (created.uid !== existing.uid || created.gid !== existing.gid) {
    // Only root may give a file away; anyone else keeps ownership of what they write.
    await handle.chown(existing.uid, existing.gid).catch(() => undefined);
  } else if ((created.mode & 0o7777) === (existing.mode & 0o7777)) {
    return;
  }
  // After chown, which may clear set-id bits.
  await handle.chmod(existing.mode & 0o7777);
}
