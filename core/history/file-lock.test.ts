import { spawnSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { withFileLock } from './file-lock.js';

let dir: string;
let lock: string;

beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'vmark-lock-'));
  lock = path.join(dir, 'index.lock');
});

afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

/** The pid of a process that has exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {
    encoding: 'utf8',
  });
  return Number(child.stdout);
}

describe('withFileLock', () => {
  it('runs one holder at a time and removes the lock after', async () => {
    const events: string[] = [];
    const hold = (name: string) =>
      withFileLock(lock, async () => {
        events.push(`${name} in`);
        await new Promise((resolve) => setTimeout(resolve, 20));
        events.push(`${name} out`);
        return name;
      });
    expect(await Promise.all([hold('a'), hold('b')])).toEqual(['a', 'b']);
    expect(events).toEqual(['a in', 'a out', 'b in', 'b out']);
    await expect(fs.access(lock)).rejects.toThrow();
  });

  it('releases the lock when the work fails', async () => {
    await expect(withFileLock(lock, () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await withFileLock(lock, () => Promise.resolve('next'))).toBe('next');
  });

  it('takes over a lock left by a process that died', async () => {
    await fs.writeFile(lock, `${deadPid()} deadbeef`);
    expect(await withFileLock(lock, () => Promise.resolve('ok'), { timeoutMs: 1000 })).toBe('ok');
  });

  it('takes over a lock older than staleMs, even an empty one', async () => {
    await fs.writeFile(lock, '');
    const past = new Date(Date.now() - 10_000);
    await fs.utimes(lock, past, past);
    expect(await withFileLock(lock, () => Promise.resolve('ok'), { staleMs: 5000 })).toBe('ok');
  });

  it('gives up on a live holder with a message naming it, and leaves its lock alone', async () => {
    await fs.writeFile(lock, `${process.pid} someone-else`);
    await expect(withFileLock(lock, () => Promise.resolve('never'), { timeoutMs: 100 })).rejects.toThrow(
      `is held by process ${process.pid}`,
    );
    expect(await fs.readFile(lock, 'utf8')).toBe(`${process.pid} someone-else`);
  });
});
