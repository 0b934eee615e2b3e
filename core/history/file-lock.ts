/**
 * A lock file shared by every vmark process of one VMARK_HOME: a `vmark mcp`
 * recording AI edits, a second `vmark mcp` started by another AI client, and
 * `vmark checkpoints restore` all append to one index, and pruning rewrites it.
 * Without the lock a rewrite could drop a line another process appended meanwhile.
 *
 * The lock is a file created with O_EXCL holding `<pid> <token>`. A holder that
 * died (its pid is gone) or that held it for longer than `staleMs` loses it.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import { errorCode } from '../vault/error-code.js';

export interface LockOptions {
  /** A lock older than this is taken to be left over from a crash. */
  readonly staleMs?: number;
  /** How long to wait for a live holder before giving up. */
  readonly timeoutMs?: number;
}

const DEFAULT_STALE_MS = 60_000;
const DEFAULT_TIMEOUT_MS = 30_000;

/** Runs `work` holding the lock at `lockPath` (whose folder must exist). */
export async function withFileLock<T>(
  lockPath: string,
  work: () => Promise<T>,
  options: LockOptions = {},
): Promise<T> {
  const token = `${process.pid} ${randomBytes(8).toString('hex')}`;
  await acquire(lockPath, token, options);
  try {
    return await work();
  } finally {
    await release(lockPath, token);
  }
}

async function acquire(lockPath: string, token: string, options: LockOptions): Promise<void> {
  const staleMs = options.staleMs ?? DEFAULT_STALE_MS;
  const deadline = Date.now() + (options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  let delay = 5;
  for (;;) {
    try {
      await fs.writeFile(lockPath, token, { flag: 'wx' });
      return;
    } catch (error) {
      if (errorCode(error) !== 'EEXIST') throw error;
    }
    const holder = await readHolder(lockPath);
    if (holder === undefined) continue;
    if (await isStale(lockPath, holder, staleMs)) {
      // Re-read just before removing, so that a lock taken since by a live process is left alone.
      if ((await readHolder(lockPath)) === holder) await fs.rm(lockPath, { force: true });
      continue;
    }
    if (Date.now() > deadline) {
      const pid = holder.split(' ')[0] || 'unknown';
      throw new Error(
        `${lockPath} is held by process ${pid}; if no vmark process is running, remove that file`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, delay));
    delay = Math.min(delay * 2, 100);
  }
}

/**
 * The holder's token, or undefined when the lock is gone. Empty while its holder
 * is between creating and writing it, or forever if it crashed right there.
 */
async function readHolder(lockPath: string): Promise<string | undefined> {
  try {
    return await fs.readFile(lockPath, 'utf8');
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return undefined;
    throw error;
  }
}

async function isStale(lockPath: string, holder: string, staleMs: number): Promise<boolean> {
  const pid = Number(holder.split(' ')[0]);
  if (Number.isSafeInteger(pid) && pid > 0 && pid !== process.pid && !isAlive(pid)) return true;
  const stats = await fs.stat(lockPath).catch(() => null);
  return stats !== null && Date.now() - stats.mtimeMs > staleMs;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return errorCode(error) === 'EPERM';
  }
}

async function release(lockPath: string, token: string): Promise<void> {
  // Never remove a lock someone else took after ours was judged stale.
  if ((await readHolder(lockPath).catch(() => undefined)) === token) {
    await fs.rm(lockPath, { force: true });
  }
}
