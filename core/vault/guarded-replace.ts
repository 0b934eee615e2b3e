/**
 * A save that can never overwrite bytes it has not seen (DESIGN §4): the file is replaced
 * only if it still holds what the host last read or wrote, and the check and the replacement
 * hold together.
 *
 * - Other vmark processes (a second host on the same vault) take turns through a lock beside
 *   the file, held from the check to the rename, so their check-then-replace never interleave.
 * - Programs that write the file in place (an editor, `echo >>`) write into the inode the
 *   check looked at. The check keeps it open; after the rename the host looks at it once more,
 *   and if it changed in the instant before the rename, their bytes are put back and the save
 *   reports the change instead of having happened.
 * - Programs that replace the file with a new one (`git checkout`, another editor's atomic
 *   save) are caught by comparing the inode right before the rename; the one window left is
 *   between that look and the rename itself, a few microseconds (ADR 24).
 *
 * The new bytes are written and fsynced to a temp file before the lock is taken, so the lock
 * is held for a few system calls whatever the size of the file. The file to be replaced is
 * opened while that fsync runs, on a plain descriptor and synchronously (ADR 98); under the
 * lock it is looked at afresh, and opened again if another file took its name. Descriptors
 * are closed on the thread pool without waiting (`releaseDescriptor`).
 */
import { type BigIntStats, fstatSync, lstatSync, renameSync, unlinkSync } from 'node:fs';
import fs from 'node:fs/promises';
import { stageFile } from './atomic-write.js';
import { errorCode } from '@vmark/sdk';
import { type DiskState, diskStateOf, fingerprint } from './file-fingerprint.js';
import { withFileLock } from './file-lock.js';
import { type LateWrite, watchForLateWrites } from './late-writes.js';
import type { LockSources } from './lock-source.js';
import {
  type OpenedDescriptor,
  openRegularDescriptor,
  readWholeFile,
  releaseDescriptor,
} from './open-regular-file.js';
import { saveLockPathFor } from './temp-files.js';

/** The file as a save found it, when it was not what the host expected. */
export interface FoundFile {
  readonly disk: DiskState;
  readonly bytes: Buffer;
}

export type GuardedOutcome =
  | { readonly kind: 'written'; readonly disk: DiskState }
  /** Nothing was written: the file is not what was expected (`found` null: there is no regular file). */
  | { readonly kind: 'changed'; readonly found: FoundFile | null };

/** The moments of a save, where a test may make another writer act. */
export type SavePoint = 'staged' | 'locked' | 'checked' | 'before-rename' | 'renamed';

export interface GuardedReplaceOptions {
  /** Called at each point of the save and awaited; for tests that force interleavings. */
  readonly probe?: (point: SavePoint) => void | Promise<void>;
  /** How long to wait for another vmark process's save of the same file. */
  readonly lockTimeoutMs?: number;
  /** Files to take the lock with by linking them (`lock-source.ts`); without them it is created. */
  readonly lockSources?: LockSources;
  /**
   * Told of writes that reached the replaced version after the save (by a program that had
   * opened it just before): see `late-writes.ts`. Without it they are not looked for.
   */
  readonly onLateWrite?: (late: LateWrite) => void;
}

/**
 * Replaces `target` (a canonical path) with `data` if it still holds `expected` (`null`: no
 * file may be there; the save creates it). Atomic and crash-safe like `writeFileAtomic`.
 * @throws DomainError `INVALID_PATH` or `READ_ONLY` when the file cannot be written at all,
 *   `BUSY` when another vmark process holds the file's lock too long.
 */
export async function replaceIfUnchanged(
  target: string,
  data: Uint8Array,
  expected: DiskState | null,
  options: GuardedReplaceOptions = {},
): Promise<GuardedOutcome> {
  const probe = options.probe ?? (() => undefined);
  // Its synchronous part (the temp file created and written) runs here; the fsync runs on.
  const staging = stageFile(target, data);
  let openedOutcome: PromiseSettledResult<OpenedDescriptor>;
  try {
    openedOutcome = { status: 'fulfilled', value: openRegularDescriptor(target) };
  } catch (reason) {
    openedOutcome = { status: 'rejected', reason };
  }
  const [stagedOutcome] = await Promise.allSettled([staging]);
  // Opened early, closed by whoever ends up holding it: the check below, or the finally.
  let early = openedOutcome.status === 'fulfilled' ? openedOutcome.value : null;
  const closeEarly = () => {
    const left = early;
    early = null;
    if (left?.kind === 'file') releaseDescriptor(left.handle);
  };
  if (stagedOutcome.status === 'rejected') {
    closeEarly();
    throw stagedOutcome.reason;
  }
  const staged = stagedOutcome.value;
  // Set once the temp file has been renamed over the target: nothing is left to remove then.
  const temp = { path: staged.temp, renamed: false };
  const written = diskStateOf(staged.stats, data);
  try {
    if (openedOutcome.status === 'rejected') throw openedOutcome.reason;
    await probe('staged');
    return await withFileLock(
      saveLockPathFor(target),
      async () => {
        await probe('locked');
        const opened = early!;
        early = null;
        const current = lookAgain(target, opened);
        if (current.kind === 'not-a-file') return { kind: 'changed', found: null };
        if (current.kind === 'missing') {
          if (expected !== null) return { kind: 'changed', found: null };
          await probe('checked');
          return await createNew(target, temp, written);
        }
        let watching = false;
        try {
          if (expected === null) return { kind: 'changed', found: await readFound(current.handle) };
          if (!(await holds(current.handle, current.stats, expected))) {
            return { kind: 'changed', found: await readFound(current.handle) };
          }
          await probe('checked');
          const outcome = await swap(target, temp, current.handle, current.stats, written, probe);
          if (outcome.kind === 'written' && options.onLateWrite) {
            watchForLateWrites(
              current.handle,
              { stats: current.stats, sha256: expected.sha256 },
              options.onLateWrite,
            );
            watching = true;
          }
          return outcome;
        } finally {
          if (!watching) releaseDescriptor(current.handle);
        }
      },
      { timeoutMs: options.lockTimeoutMs, sources: options.lockSources },
    );
  } finally {
    closeEarly();
    // A leftover on any path but the rename's (a link to a new file leaves it too).
    if (!temp.renamed) removeQuietly(temp.path);
  }
}

/**
 * The file at `target` now, under the lock, from what was opened before it: the same handle
 * with fresh stats while the name still leads to the opened inode, else (replaced, removed,
 * or nothing opened) a new open.
 */
function lookAgain(target: string, opened: OpenedDescriptor): OpenedDescriptor {
  if (opened.kind === 'file') {
    const atName = lstatOrNull(target);
    if (atName !== null && atName.ino === opened.stats.ino && atName.dev === opened.stats.dev) {
      return { kind: 'file', handle: opened.handle, stats: fstatSync(opened.handle, { bigint: true }) };
    }
    releaseDescriptor(opened.handle);
  }
  return openRegularDescriptor(target);
}

/** The staged file, and whether it has been renamed over the target (so has no name of its own left). */
interface TempFile {
  readonly path: string;
  renamed: boolean;
}

function removeQuietly(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // A temp file that cannot be removed is swept at the next start (`sweep-temp-files.ts`).
  }
}

/**
 * Replaces the open file `old` (checked to hold the expected bytes) with the staged one. The
 * last look, the rename and the look after it are synchronous system calls, back to back, so
 * nothing else runs between them and the windows they leave are a few microseconds wide.
 */
async function swap(
  target: string,
  temp: TempFile,
  old: number,
  checked: BigIntStats,
  written: DiskState,
  probe: (point: SavePoint) => void | Promise<void>,
): Promise<GuardedOutcome> {
  await probe('before-rename');
  // A program that replaced the file since the check put another inode at the name.
  const atName = lstatOrNull(target);
  if (atName === null || atName.ino !== checked.ino || atName.dev !== checked.dev) {
    return { kind: 'changed', found: await readFoundAt(target) };
  }
  // One that wrote in place since the check changed the inode itself.
  if (!sameContentStamp(fstatSync(old, { bigint: true }), checked)) {
    return { kind: 'changed', found: await readFound(old) };
  }
  renameSync(temp.path, target);
  temp.renamed = true;
  const after = fstatSync(old, { bigint: true });
  await probe('renamed');
  // Written in place in the instant between the last look and the rename: put it back.
  if (!sameContentStamp(after, checked) || !sameContentStamp(fstatSync(old, { bigint: true }), checked)) {
    const found = await readFound(old);
    await putBack(target, found.bytes, written);
    return { kind: 'changed', found };
  }
  return { kind: 'written', disk: written };
}

function lstatOrNull(file: string): BigIntStats | null {
  try {
    return lstatSync(file, { bigint: true });
  } catch {
    return null;
  }
}

/** A new file, where none was: `link` fails rather than replace one that appeared meanwhile. */
async function createNew(target: string, temp: TempFile, written: DiskState): Promise<GuardedOutcome> {
  try {
    await fs.link(temp.path, target);
  } catch (error) {
    const code = errorCode(error);
    if (code === 'EEXIST') return { kind: 'changed', found: await readFoundAt(target) };
    // File systems without hard links (FAT, some network shares): the lock and the check must do.
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'EMLINK') throw error;
    await fs.rename(temp.path, target);
    temp.renamed = true;
  }
  return { kind: 'written', disk: written };
}

/**
 * Puts the bytes another program wrote back over the save that replaced them — unless the
 * saved file itself changed meanwhile, in which case that newer change stays.
 */
async function putBack(target: string, bytes: Buffer, written: DiskState): Promise<void> {
  const staged = await stageFile(target, bytes);
  try {
    const atName = await fs.lstat(target, { bigint: true }).catch(() => null);
    if (atName !== null && atName.ino === written.ino && sameStamp(atName, written)) {
      await fs.rename(staged.temp, target);
    }
  } finally {
    await fs.rm(staged.temp, { force: true }).catch(() => undefined);
  }
}

/** Whether the open file holds `expected`: by stat signature, else by the hash of its bytes. */
async function holds(fd: number, stats: BigIntStats, expected: DiskState): Promise<boolean> {
  if (stats.ino === expected.ino && sameStamp(stats, expected)) return true;
  return fingerprint(await readWholeFile(fd)) === expected.sha256;
}

const sameStamp = (stats: BigIntStats, known: DiskState): boolean =>
  stats.size === known.size && stats.mtimeNs === known.mtimeNs;

const sameContentStamp = (a: BigIntStats, b: BigIntStats): boolean =>
  a.size === b.size && a.mtimeNs === b.mtimeNs;

async function readFound(fd: number): Promise<FoundFile> {
  const stats = fstatSync(fd, { bigint: true });
  const bytes = await readWholeFile(fd);
  return { disk: diskStateOf(stats, bytes), bytes };
}

async function readFoundAt(target: string): Promise<FoundFile | null> {
  const opened = openRegularDescriptor(target);
  if (opened.kind !== 'file') return null;
  try {
    return await readFound(opened.handle);
  } finally {
    releaseDescriptor(opened.handle);
  }
}
