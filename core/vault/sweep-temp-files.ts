/**
 * Removes the temp files and locks that a vmark process killed in the middle of a save left
 * in a folder (a SIGKILL during a 10 MB save leaves a 10 MB hidden file). Only what is
 * certainly nobody's any more goes: a temp file whose process has ended, a lock whose holder
 * has, and files of earlier versions (which name no process) once they are an hour old.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { removeStaleLock } from './file-lock.js';
import { ownerIsGone } from './process-owner.js';
import { classifyTempName } from './temp-files.js';

/** Older than this, a temp file that names no process cannot belong to a save still under way. */
const ANONYMOUS_TEMP_MAX_AGE_MS = 60 * 60_000;
/** A lock set aside lives for a few system calls. */
const LOCK_ASIDE_MAX_AGE_MS = 60_000;

/** Sweeps one folder (not its subfolders); never throws. Returns the names removed. */
export async function sweepTempFiles(folder: string): Promise<string[]> {
  const names = await fs.readdir(folder).catch(() => [] as string[]);
  const removed: string[] = [];
  for (const name of names) {
    const file = path.join(folder, name);
    const what = classifyTempName(name);
    try {
      switch (what.kind) {
        case 'temp':
          if (!ownerIsGone(what.owner)) continue;
          await fs.rm(file, { force: true });
          break;
        case 'lock':
          await removeStaleLock(file);
          if (await exists(file)) continue;
          break;
        case 'anonymous-temp':
          if (!(await olderThan(file, ANONYMOUS_TEMP_MAX_AGE_MS))) continue;
          await fs.rm(file, { force: true });
          break;
        case 'lock-aside':
          if (!(await olderThan(file, LOCK_ASIDE_MAX_AGE_MS))) continue;
          await fs.rm(file, { force: true });
          break;
        case 'other':
          continue;
      }
      removed.push(name);
    } catch {
      // Not ours to remove after all (permissions, a race with its owner): leave it.
    }
  }
  return removed;
}

async function olderThan(file: string, ms: number): Promise<boolean> {
  const stats = await fs.lstat(file).catch(() => null);
  return stats !== null && stats.isFile() && Date.now() - stats.mtimeMs > ms;
}

async function exists(file: string): Promise<boolean> {
  return (await fs.lstat(file).catch(() => null)) !== null;
}
