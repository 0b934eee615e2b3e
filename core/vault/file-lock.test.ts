import { spawn, spawnSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
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

describe('breaking a lock left by a crash', () => {
  it('never removes a lock that another holder won after the crashed one was read', async () => {
    await fs.writeFile(lock, `${ownerTag({ ...thisProcess(), pid: deadPid() })} crashed`);
    // The breaker reads the crashed holder, then waits on its judgement; meanwhile the lock
    // changes hands to a live holder, which the break must leave alone.
    const breaking = removeStaleLock(lock);
    rmSync(lock);
    writeFileSync(lock, `${ownerTag()} won-meanwhile`);
    await breaking;
    expect(await fs.readFile(lock, 'utf8')).toBe(`${ownerTag()} won-meanwhile`);
  });

  it('clears a breaker left by a process that ended in the middle of a break', async () => {
    await fs.writeFile(lock, `${ownerTag({ ...thisProcess(), pid: deadPid() })} crashed`);
    await fs.writeFile(`${lock}.stale.vmark-tmp`, `${ownerTag({ ...thisProcess(), pid: deadPid() })} x`);
    expect(await withFileLock(lock, () => Promise.resolve('ok'), { timeoutMs: 2000 })).toBe('ok');
    expect(await fs.readdir(dir)).toEqual([]);
  });

  it('waits for a live breaker, and clears one that has stood far longer than a break takes', async () => {
    await fs.writeFile(lock, `${ownerTag({ ...thisProcess(), pid: deadPid() })} crashed`);
    const breaker = `${lock}.stale.vmark-tmp`;
    await fs.writeFile(breaker, `${ownerTag()} breaking`);
    await expect(withFileLock(lock, () => Promise.resolve('never'), { timeoutMs: 50 })).rejects.toMatchObject(
      {
        code: 'BUSY',
      },
    );
    const longAgo = new Date(Date.now() - 60_000);
    await fs.utimes(breaker, longAgo, longAgo);
    expect(await withFileLock(lock, () => Promise.resolve('ok'), { timeoutMs: 2000 })).toBe('ok');
  });

  it('lets one process in at a time while processes contend and some die holding the lock', async () => {
    // Each process takes the lock 15 times, noting when it enters and leaves; three of them
    // then die holding it, so the others keep breaking crashed locks while contending.
    await contendInProcesses([
      { dies: true },
      { dies: false },
      { dies: true },
      { dies: false },
      { dies: true },
    ]);
  }, 60_000);

  it('lets one process in at a time when some take it by linking a source (ADR 87) and some by creating it', async () => {
    const sourceFolder = path.join(dir, 'lock-sources');
    await contendInProcesses([
      { dies: true, sourceFolder },
      { dies: false, sourceFolder },
      { dies: true },
      { dies: false },
      { dies: true, sourceFolder },
      { dies: false, sourceFolder },
    ]);
    // Every process removed its sources as it exited, the ones that died holding the lock too.
    expect(await fs.readdir(sourceFolder)).toEqual([]);
  }, 60_000);
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

/**
 * Runs one process per entry, each taking the lock 15 times and noting in a journal when it
 * enters and leaves (`dies`: the last time it exits holding it, so others must break it;
 * `sourceFolder`: it links sources kept there instead of creating the lock file), and checks
 * that the journal never shows two inside at once.
 */
async function contendInProcesses(processes: { dies: boolean; sourceFolder?: string }[]): Promise<void> {
  const dist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist/vault');
  const journal = path.join(dir, 'journal');
  const script = `
    import { appendFileSync } from 'node:fs';
    const { withFileLock } = await import(${JSON.stringify(path.join(dist, 'file-lock.js'))});
    const { lockSourcesIn } = await import(${JSON.stringify(path.join(dist, 'lock-source.js'))});
    const [lock, journal, dies, folder] = process.argv.slice(1);
    const options = folder ? { staleMs: 60_000, sources: lockSourcesIn(folder) } : { staleMs: 60_000 };
    for (let i = 0; i < 15; i++) {
      await withFileLock(lock, async () => {
        appendFileSync(journal, 'in ' + process.pid + '\\n');
        await new Promise((resolve) => setTimeout(resolve, 1));
        if (dies === 'dies' && i === 14) {
          appendFileSync(journal, 'dies ' + process.pid + '\\n');
          process.exit(0);
        }
        appendFileSync(journal, 'out ' + process.pid + '\\n');
      }, options);
    }`;
  const run = ({ dies, sourceFolder }: { dies: boolean; sourceFolder?: string }) =>
    new Promise<number | null>((resolve) => {
      const args = ['--input-type=module', '-e', script, lock, journal, dies ? 'dies' : 'lives'];
      const child = spawn(process.execPath, sourceFolder ? [...args, sourceFolder] : args, {
        stdio: 'inherit',
      });
      child.on('exit', resolve);
    });
  const codes = await Promise.all(processes.map(run));
  expect(codes).toEqual(processes.map(() => 0));
  const lines = (await fs.readFile(journal, 'utf8')).trim().split('\n');
  let inside: string | undefined;
  for (const line of lines) {
    const [what, pid] = line.split(' ');
    if (what === 'in') {
      expect(inside).toBeUndefined();
      inside = pid;
    } else {
      // "out", or "dies": it ends holding the lock, which the next one must break.
      expect(inside).toBe(pid);
      inside = undefined;
    }
  }
  expect(lines.filter((line) => line.startsWith('in '))).toHaveLength(15 * processes.length);
}
