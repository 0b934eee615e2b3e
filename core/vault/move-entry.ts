/**
 * Moving and copying entries of the vault without ever replacing what is at the target (issue 19:
 * a rename or move onto an existing file is refused, nothing lost). POSIX `rename` replaces its
 * target and Node has no `renameat2(RENAME_NOREPLACE)`, so a file moves as `link` (which fails
 * when the name is taken, atomically) then `unlink` of the old name; a folder, whose `rename` can
 * only replace an empty folder, is looked at first and renamed. A file system without hard links
 * gets the folder's way: look, then rename.
 */
import { constants } from 'node:fs';
import { copyFile, cp, link, lstat, mkdir, rename, unlink } from 'node:fs/promises';
import { DomainError, errorCode } from '@vmark/sdk';
import { quotePath } from './path-scope.js';

export function alreadyThere(target: string): DomainError {
  return new DomainError(
    'INVALID_PATH',
    `${quotePath(target)} already exists: vmark does not replace it. Pick another name, or move that one first.`,
  );
}

/** Refusals of `link` that mean "this file system has no hard links", not "the name is taken". */
const NO_HARD_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EMLINK']);

/**
 * Moves `from` (a file, folder or link: the entry itself) to `to`, which must not exist. A rename
 * that only changes the case of a name on a disk that ignores case is the same entry: renamed.
 * @throws DomainError `INVALID_PATH` when `to` exists.
 */
export async function moveNoReplace(from: string, to: string): Promise<void> {
  const source = await lstat(from);
  const target = await lstat(to).catch(() => null);
  if (target !== null) {
    if (target.ino === source.ino && target.dev === source.dev && from !== to) return rename(from, to);
    throw alreadyThere(to);
  }
  if (!source.isDirectory()) {
    try {
      await link(from, to);
    } catch (error) {
      const code = errorCode(error);
      if (code === 'EEXIST') throw alreadyThere(to);
      if (code === undefined || !NO_HARD_LINKS.has(code)) throw error;
      await renameIfFree(from, to);
      return;
    }
    await unlink(from);
    return;
  }
  await renameIfFree(from, to);
}

async function renameIfFree(from: string, to: string): Promise<void> {
  if ((await lstat(to).catch(() => null)) !== null) throw alreadyThere(to);
  await rename(from, to);
}

/**
 * Copies `from` to `to`, which must not exist: a file with `COPYFILE_EXCL`, a folder created
 * with `mkdir` (which fails on an existing name) and filled without replacing anything; links
 * are copied as links.
 */
export async function copyNoReplace(from: string, to: string): Promise<void> {
  const source = await lstat(from);
  try {
    if (!source.isDirectory()) {
      await copyFile(from, to, constants.COPYFILE_EXCL);
      return;
    }
    await mkdir(to);
  } catch (error) {
    if (errorCode(error) === 'EEXIST') throw alreadyThere(to);
    throw error;
  }
  await cp(from, to, { recursive: true, force: false, errorOnExist: true, verbatimSymlinks: true });
}
