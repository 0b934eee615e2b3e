import { spawnSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { removeStaleLock, withFileLock } from './file-lock.js';
import { ownerTag, thisProcess } from './process-owner.js';

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
    await fs.writeFile(lock, `${ownerTag({ ...thisProcess(), pid: deadPid() })} deadbeef`);
    expect(await withFileLock(lock, () => Promise.resolve('ok'), { timeoutMs: 1000 })).toBe('ok');
  });

  it('takes over a lock of this pid left in an earlier boot of the machine', async () => {
    const self = thisProcess();
    if (self.boot === '') return; // No boot id on this platform: nothing to tell boots apart by.
    const earlier = self.boot === '000000' ? '111111' : '000000';
    await fs.writeFile(lock, `${ownerTag({ ...self, boot: earlier, pid: process.pid })} old`);
    expect(await withFileLock(lock, () => Promise.resolve('ok'), { timeoutMs: 1000 })).toBe('ok');
  });

  it('waits for another machine’s lock, which it cannot judge, until it is older than staleMs', async () => {
    const foreign = `${ownerTag({ host: 'abcdef', boot: '', pid: deadPid() })} theirs`;
    await fs.writeFile(lock, foreign);
    await expect(withFileLock(lock, () => Promise.resolve('never'), { timeoutMs: 50 })).rejects.toMatchObject(
      {
        code: 'BUSY',
      },
    );
    expect(await fs.readFile(lock, 'utf8')).toBe(foreign);
    const past = new Date(Date.now() - 10_000);
    await fs.utimes(lock, past, past);
    expect(await withFileLock(lock, () => Promise.resolve('ok'), { staleMs: 5000 })).toBe('ok');
  });

  it('takes over a lock older than staleMs, even an empty one', async () => {
    await fs.writeFile(lock, '');
    const past = new Date(Date.now() - 10_000);
    await fs.utimes(lock, past, past);
    expect(await withFileLock(lock, () => Promise.resolve('ok'), { staleMs: 5000 })).toBe('ok');
  });

  it('gives up on a live holder with BUSY naming it, and leaves its lock alone', async () => {
    const live = `${ownerTag()} someone-else`;
    await fs.writeFile(lock, live);
    await expect(
      withFileLock(lock, () => Promise.resolve('never'), { timeoutMs: 100 }),
    ).rejects.toMatchObject({
      code: 'BUSY',
      message: expect.stringContaining(`pid ${process.pid}`),
    });
    expect(await fs.readFile(lock, 'utf8')).toBe(live);
  });

  it('lets exactly one holder in at a time when many contend for a lock left by a crash', async () => {
    await fs.writeFile(lock, `${ownerTag({ ...thisProcess(), pid: deadPid() })} crashed`);
    let inside = 0;
    let most = 0;
    const hold = () =>
      withFileLock(lock, async () => {
        most = Math.max(most, ++inside);
        await new Promise((resolve) => setTimeout(resolve, 2));
        inside--;
      });
    await Promise.all(Array.from({ length: 20 }, hold));
    expect(most).toBe(1);
    expect((await fs.readdir(dir)).sort()).toEqual([]);
  });
});

describe('removeStaleLock', () => {
  it('removes the lock of a process that has ended and leaves a live one', async () => {
    await fs.writeFile(lock, `${ownerTag({ ...thisProcess(), pid: deadPid() })} gone`);
    await removeStaleLock(lock);
    await expect(fs.access(lock)).rejects.toThrow();
    await fs.writeFile(lock, `${ownerTag()} live`);
    await removeStaleLock(lock);
    expect(await fs.readFile(lock, 'utf8')).toBe(`${ownerTag()} live`);
  });
});
