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
 * takes it, and a trip through libuv's thread pool costs more than the calls (ADR 47). Given
 * `sources`, the lock is taken by linking a file of this process, rewritten with the token,
 * to the lock's name instead of creating the file (ADR 87, `lock-source.ts`): the same
 * content, the same O_EXCL-like failure when the name is taken, no inode allocated.
 */
import { readFileSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { DomainError } from '@vmark/sdk';
import { errorCode } from '@vmark/sdk';
import { type LockSource, type LockSources } from './lock-source.js';
import { ownerIsGone, ownerTag, parseOwnerTag } from './process-owner.js';
import { randomHex } from './random-draws.js';
import { TEMP_SUFFIX } from './temp-files.js';

export interface LockOptions {
  /** How long to wait for a live holder before giving up with `BUSY`. */
  readonly timeoutMs?: number;
  /** A lock file older than this is taken to be left over from a crash, whoever holds it. */
  readonly staleMs?: number;
  /** Files to link at the lock's name instead of creating it (in a folder of vmark's own). */
  readonly sources?: LockSources;
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
  const token = `${ownerTag()} ${randomHex(8)}`;
  const source = await acquire(lockPath, token, options);
  try {
    return await work();
  } finally {
    if (source === null) release(lockPath, token);
    else options.sources!.release(lockPath, source);
  }
}

/** Takes the lock: the source linked at its name, or null when the lock file was created. */
async function acquire(lockPath: string, token: string, options: LockOptions): Promise<LockSource | null> {
  const staleMs = options.staleMs ?? DEFAULT_STALE_MS;
  const deadline = Date.now() + (options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  let delay = 1;
  for (;;) {
    const taken = takeOnce(lockPath, token, options.sources);
    if (taken !== 'taken') return taken;
    const holder = readHolder(lockPath);
    if (holder === undefined) continue;
    // A breaker at work (or one left by a crash) is waited for like a live holder.
    if ((await isStale(lockPath, holder, staleMs)) && breakStale(lockPath, holder)) continue;
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

/** One attempt: the linked source, null for a created lock file, 'taken' when another holds it. */
function takeOnce(
  lockPath: string,
  token: string,
  sources: LockSources | undefined,
): LockSource | null | 'taken' {
  const linked = sources?.link(lockPath, token) ?? 'cannot';
  if (linked !== 'cannot') return linked;
  try {
    writeFileSync(lockPath, token, { flag: 'wx', mode: 0o600 });
    return null;
  } catch (error) {
    if (errorCode(error) !== 'EEXIST') throw error;
    return 'taken';
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

/** A breaker left by a crash between its two system calls is cleared after this long. */
const BREAKER_STALE_MS = 10_000;

/**
 * Takes a stale lock away without ever removing a fresh one. Breakers take turns at a second
 * lock, the breaker, and remove the lock only if it still holds the stale holder's token: while
 * it does, nobody else can replace it (a new holder needs the path empty, and only a breaker
 * empties it), so the check and the removal cannot straddle a fresh lock. Renaming the lock aside
 * instead once took a lock a holder had just won and let a third one in beside it.
 *
 * Synchronous throughout: the breaker is held for a few system calls, and no other contender of
 * this process can run in between. False when another breaker is at work.
 */
function breakStale(lockPath: string, staleHolder: string): boolean {
  // Ends like a temp file, so folder watchers pass over it and a sweep may remove it if left.
  const breaker = `${lockPath}.stale${TEMP_SUFFIX}`;
  try {
    writeFileSync(breaker, `${ownerTag()} ${randomHex(8)}`, { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if (errorCode(error) !== 'EEXIST') throw error;
    clearLeftBreaker(breaker);
    return false;
  }
  try {
    if (readHolder(lockPath) === staleHolder) rmSync(lockPath, { force: true });
  } finally {
    rmSync(breaker, { force: true });
  }
  return true;
}

/** Removes a breaker whose process has ended or that has stood far longer than a break takes. */
function clearLeftBreaker(breaker: string): void {
  const holder = readHolderOrNone(breaker);
  if (holder === undefined) return;
  const owner = parseOwnerTag(holder.split(' ')[0] ?? '');
  const gone = owner !== null && ownerIsGone(owner);
  if (
    gone ||
    Date.now() - (statSync(breaker, { throwIfNoEntry: false })?.mtimeMs ?? Date.now()) > BREAKER_STALE_MS
  ) {
    rmSync(breaker, { force: true });
  }
}

/** Removes the lock at `lockPath` if its holder has ended or it is older than `staleMs`. */
export async function removeStaleLock(lockPath: string, staleMs = DEFAULT_STALE_MS): Promise<void> {
  const holder = readHolderOrNone(lockPath);
  if (holder !== undefined && (await isStale(lockPath, holder, staleMs))) breakStale(lockPath, holder);
}

function release(lockPath: string, token: string): void {
  // Never remove a lock someone else took after ours was judged stale.
  if (readHolderOrNone(lockPath) === token) removeLockFile(lockPath);
}

/** `unlink`, a missing file taken as removed: `rmSync`'s checks cost a save more than the call (ADR 80). */
function removeLockFile(lockPath: string): void {
  try {
    unlinkSync(lockPath);
  } catch (error) {
    if (errorCode(error) !== 'ENOENT') throw error;
  }
}

/** `readHolder`, with any failure to read taken as "no holder to compare". */
function readHolderOrNone(lockPath: string): string | undefined {
  try {
    return readHolder(lockPath);
  } catch {
    return undefined;
  }
}
