/**
 * A lock shared by every vmark process on one machine (and every process that can see the
 * folder): two hosts saving one file, a `vmark mcp` and `vmark checkpoints restore` sharing a
 * checkpoint index, a `vmark serve` and a `vmark mcp` rewriting one settings file.
 *
 * The lock is a file created with O_EXCL holding `<owner tag> <token>`. A holder that has
 * certainly ended (`ownerIsGone`: its pid is gone, or it ran in an earlier boot) loses it
 * at once; one that cannot be judged (another machine, an empty file left by a crash
 * between creating and writing it) loses it once the file is older than `staleMs`.
 *
 * Taking, reading and releasing the lock are synchronous calls on a few bytes: every save
 * takes it, and a trip through libuv's thread pool costs more than the calls (ADR 47).
 */
import { randomBytes } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { DomainError } from '@vmark/sdk';
import { errorCode } from '@vmark/sdk';
import { ownerIsGone, ownerTag, parseOwnerTag } from './process-owner.js';
import { TEMP_SUFFIX } from './temp-files.js';

export interface LockOptions {
  /** How long to wait for a live holder before giving up with `BUSY`. */
  readonly timeoutMs?: number;
  /** A lock file older than this is taken to be left over from a crash, whoever holds it. */
  readonly staleMs?: number;
}

const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_STALE_MS = 60_000;

/**
 * Runs `work` holding the lock at `lockPath` (whose folder must exist).
 * @throws DomainError `BUSY` when a live holder keeps it past `timeoutMs`.
 */
export async function withFileLock<T>(
  lockPath: string,
  work: () => Promise<T>,
  options: LockOptions = {},
): Promise<T> {
  const token = `${ownerTag()} ${randomBytes(8).toString('hex')}`;
  await acquire(lockPath, token, options);
  try {
    return await work();
  } finally {
    release(lockPath, token);
  }
}

async function acquire(lockPath: string, token: string, options: LockOptions): Promise<void> {
  const staleMs = options.staleMs ?? DEFAULT_STALE_MS;
  const deadline = Date.now() + (options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  let delay = 1;
  for (;;) {
    try {
      writeFileSync(lockPath, token, { flag: 'wx', mode: 0o600 });
      return;
    } catch (error) {
      if (errorCode(error) !== 'EEXIST') throw error;
    }
    const holder = readHolder(lockPath);
    if (holder === undefined) continue;
    if (await isStale(lockPath, holder, staleMs)) {
      await breakStale(lockPath, holder);
      continue;
    }
    if (Date.now() > deadline) {
      const pid = parseOwnerTag(holder.split(' ')[0] ?? '')?.pid ?? 'unknown';
      throw new DomainError(
        'BUSY',
        `${JSON.stringify(lockPath)} is held by another vmark process (pid ${pid}); try again shortly`,
      );
    }
    await sleep(delay);
    delay = Math.min(delay * 2, 50);
  }
}

/** The holder's token, or undefined when the lock is gone. Empty while its holder is writing it. */
function readHolder(lockPath: string): string | undefined {
  try {
    return readFileSync(lockPath, 'utf8');
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return undefined;
    throw error;
  }
}

async function isStale(lockPath: string, holder: string, staleMs: number): Promise<boolean> {
  const owner = parseOwnerTag(holder.split(' ')[0] ?? '');
  if (owner !== null && ownerIsGone(owner)) return true;
  const stats = await fs.stat(lockPath).catch(() => null);
  return stats !== null && Date.now() - stats.mtimeMs > staleMs;
}

/**
 * Takes a stale lock away without ever removing a fresh one: the lock is renamed aside (one
 * atomic step that takes whatever is there now) and removed only if it is still the stale
 * holder's; a fresh lock taken meanwhile is linked back (never over yet another one).
 */
async function breakStale(lockPath: string, staleHolder: string): Promise<void> {
  // Ends like a temp file, so folder watchers pass over it and a sweep may remove it if left.
  const aside = `${lockPath}.${randomBytes(6).toString('hex')}.stale${TEMP_SUFFIX}`;
  try {
    await fs.rename(lockPath, aside);
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return;
    throw error;
  }
  const taken = readHolder(aside);
  if (taken !== undefined && taken !== staleHolder) {
    await fs.link(aside, lockPath).catch(() => undefined);
  }
  await fs.rm(aside, { force: true });
}

/** Removes the lock at `lockPath` if its holder has ended or it is older than `staleMs`. */
export async function removeStaleLock(lockPath: string, staleMs = DEFAULT_STALE_MS): Promise<void> {
  const holder = readHolderOrNone(lockPath);
  if (holder !== undefined && (await isStale(lockPath, holder, staleMs))) await breakStale(lockPath, holder);
}

function release(lockPath: string, token: string): void {
  // Never remove a lock someone else took after ours was judged stale.
  if (readHolderOrNone(lockPath) === token) rmSync(lockPath, { force: true });
}

/** `readHolder`, with any failure to read taken as "no holder to compare". */
function readHolderOrNone(lockPath: string): string | undefined {
  try {
    return readHolder(lockPath);
  } catch {
    return undefined;
  }
}
