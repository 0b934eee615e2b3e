import { open, rm, stat } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { DomainError } from '@vmark/sdk';

/** A lock older than this was left by a process that died while holding it. */
const STALE_MS = 10_000;
const GIVE_UP_MS = 5_000;

/**
 * Runs `work` holding `<file>.lock`, so two vmark processes on one `VMARK_HOME`
 * (a `vmark serve` and a `vmark mcp`) take turns at a read-modify-write of the
 * file instead of one losing the other's change.
 */
export async function withFileLock<T>(file: string, work: () => Promise<T>): Promise<T> {
  const lock = `${file}.lock`;
  const started = Date.now();
  for (;;) {
    try {
      await (await open(lock, 'wx', 0o600)).close();
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const age = await stat(lock).then(
        (s) => Date.now() - s.mtimeMs,
        () => 0,
      );
      if (age > STALE_MS) await rm(lock, { force: true });
      else if (Date.now() - started > GIVE_UP_MS) {
        throw new DomainError('BUSY', `${file} is being changed by another vmark; try again`);
      } else await sleep(5 + Math.random() * 20);
    }
  }
  try {
    return await work();
  } finally {
    await rm(lock, { force: true });
  }
}
