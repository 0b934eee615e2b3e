import { existsSync, readFileSync, statSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { removeStaleLock, withFileLock } from './file-lock.js';
import { type DiskState, diskStateOf } from './file-fingerprint.js';
import { replaceIfUnchanged } from './guarded-replace.js';
import { LockSources } from './lock-source.js';
import { ownerTag, thisProcess } from './process-owner.js';

let dir: string;
let lock: string;
let sourceFolder: string;
let sources: LockSources;

beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'vmark-lock-source-'));
  lock = path.join(dir, '.note.md.lock.vmark-tmp');
  sourceFolder = path.join(dir, 'home', 'lock-sources');
  sources = new LockSources(sourceFolder);
});

afterEach(async () => {
  sources.removeAll();
  await fs.rm(dir, { recursive: true, force: true });
});

const sourceNames = async () => (await fs.readdir(sourceFolder)).sort();

/** Holds the lock (taken with `options`) until the returned `release` is called. */
async function holding(options: Parameters<typeof withFileLock>[2]) {
  let release!: () => void;
  let entered!: () => void;
  const inside = new Promise<void>((resolve) => (entered = resolve));
  const done = withFileLock(
    lock,
    () => new Promise<void>((resolve) => ((release = resolve), entered())),
    options,
  );
  await inside;
  return { release: () => (release(), done) };
}

describe('a lock taken by linking a source', () => {
  it('names its holder with a token of its own at each acquisition, from one reused source', async () => {
    const seen: string[] = [];
    for (let i = 0; i < 3; i++) {
      await withFileLock(lock, () => Promise.resolve(void seen.push(readFileSync(lock, 'utf8'))), {
        sources,
      });
    }
    expect(new Set(seen).size).toBe(3);
    for (const holder of seen) expect(holder).toMatch(new RegExp(`^${ownerTag()} [0-9a-f]{16}$`));
    expect(existsSync(lock)).toBe(false);
    // One source served all three, and its own name stays while the process runs.
    expect(await sourceNames()).toHaveLength(1);
    sources.removeAll();
    expect(await sourceNames()).toEqual([]);
  });

  it('is fresh when taken: its mtime is the acquisition’s, not the source’s creation', async () => {
    await withFileLock(lock, () => Promise.resolve(), { sources });
    const [name] = await sourceNames();
    const past = new Date(Date.now() - 120_000);
    await fs.utimes(path.join(sourceFolder, name!), past, past);
    const mtime = await withFileLock(lock, () => Promise.resolve(statSync(lock).mtimeMs), { sources });
    expect(Date.now() - mtime).toBeLessThan(60_000);
  });

  it('excludes a host that creates its lock file (another vmark, an earlier version) until released', async () => {
    const held = await holding({ sources });
    await expect(withFileLock(lock, () => Promise.resolve('never'), { timeoutMs: 50 })).rejects.toMatchObject(
      {
        code: 'BUSY',
      },
    );
    await held.release();
    expect(await withFileLock(lock, () => Promise.resolve('ok'), { timeoutMs: 1000 })).toBe('ok');
  });

  it('waits for a lock file another host created, and leaves it alone', async () => {
    const theirs = `${ownerTag()} created-by-another`;
    await fs.writeFile(lock, theirs);
    await expect(
      withFileLock(lock, () => Promise.resolve('never'), { timeoutMs: 50, sources }),
    ).rejects.toMatchObject({ code: 'BUSY' });
    expect(await fs.readFile(lock, 'utf8')).toBe(theirs);
  });

  it('runs one holder at a time among linkers and creators in one process', async () => {
    let inside = 0;
    let most = 0;
    const hold = (linked: boolean) =>
      withFileLock(
        lock,
        async () => {
          most = Math.max(most, ++inside);
          await new Promise((resolve) => setTimeout(resolve, 1));
          inside--;
        },
        linked ? { sources } : {},
      );
    await Promise.all(Array.from({ length: 20 }, (_, i) => hold(i % 3 !== 0)));
    expect(most).toBe(1);
    expect(existsSync(lock)).toBe(false);
  });

  it('is never removed by a breaker that read an earlier acquisition of the same source', async () => {
    const first = await holding({ sources });
    // Judges the first holder stale (any age is past a negative staleMs) and, after its
    // asynchronous look, breaks only if the lock still holds the token it read.
    const breaking = removeStaleLock(lock, -1000);
    await first.release();
    const second = await holding({ sources });
    const secondToken = readFileSync(lock, 'utf8');
    await breaking;
    expect(await sourceNames()).toHaveLength(1);
    expect(readFileSync(lock, 'utf8')).toBe(secondToken);
    await second.release();
    expect(existsSync(lock)).toBe(false);
  });

  it('does not remove, at release, a lock taken from it as stale and given to another', async () => {
    const first = await holding({ sources });
    await removeStaleLock(lock, -1000);
    const theirs = `${ownerTag()} took-it-after`;
    await fs.writeFile(lock, theirs, { flag: 'wx' });
    await first.release();
    expect(await fs.readFile(lock, 'utf8')).toBe(theirs);
  });

  it('makes a new source when its file was removed by another hand', async () => {
    await withFileLock(lock, () => Promise.resolve(), { sources });
    for (const name of await sourceNames()) await fs.rm(path.join(sourceFolder, name));
    expect(await withFileLock(lock, () => Promise.resolve('ok'), { sources })).toBe('ok');
    expect(await sourceNames()).toHaveLength(1);
    expect(existsSync(lock)).toBe(false);
  });

  it('creates the lock file where a link cannot reach (another file system)', async () => {
    const shm = '/dev/shm';
    if (!existsSync(shm) || statSync(shm).dev === statSync(dir).dev) return;
    const elsewhere = await fs.mkdtemp(path.join(shm, 'vmark-lock-source-'));
    const far = new LockSources(path.join(elsewhere, 'lock-sources'));
    try {
      const holder = await withFileLock(lock, () => Promise.resolve(readFileSync(lock, 'utf8')), {
        sources: far,
      });
      expect(holder).toMatch(new RegExp(`^${ownerTag()} [0-9a-f]{16}$`));
      expect(statSync(lock, { throwIfNoEntry: false })).toBeUndefined();
    } finally {
      far.removeAll();
      await fs.rm(elsewhere, { recursive: true, force: true });
    }
  });

  it('removes the sources of processes that ended without removing them', async () => {
    await fs.mkdir(sourceFolder, { recursive: true });
    // Past any pid_max: a process that is certainly not running.
    const ended = ownerTag({ ...thisProcess(), pid: 2 ** 30 });
    const dead = path.join(sourceFolder, `.lock-source.${ended}.0123456789ab.vmark-tmp`);
    await fs.writeFile(dead, 'left by a killed process');
    await withFileLock(lock, () => Promise.resolve(), { sources });
    expect(existsSync(dead)).toBe(false);
  });
});

describe('a guarded save with lock sources', () => {
  const file = () => path.join(dir, 'note.md');
  const known = async (): Promise<DiskState> =>
    diskStateOf(await fs.stat(file(), { bigint: true }), await fs.readFile(file()));

  it('is held off by another host’s lock until it is released, and then saves', async () => {
    await fs.writeFile(file(), 'base\n');
    const expected = await known();
    const other = await holding({});
    await expect(
      replaceIfUnchanged(file(), Buffer.from('ours\n'), expected, {
        lockSources: sources,
        lockTimeoutMs: 50,
      }),
    ).rejects.toMatchObject({ code: 'BUSY' });
    expect(await fs.readFile(file(), 'utf8')).toBe('base\n');
    await other.release();
    const outcome = await replaceIfUnchanged(file(), Buffer.from('ours\n'), expected, {
      lockSources: sources,
    });
    expect(outcome.kind).toBe('written');
    expect((await fs.readdir(dir)).sort()).toEqual(['home', 'note.md']);
  });

  it('holds another host off from the check to the rename', async () => {
    await fs.writeFile(file(), 'base\n');
    const expected = await known();
    let tried: unknown;
    const probe = async (point: string) => {
      if (point !== 'checked') return;
      tried = await withFileLock(lock, () => Promise.resolve('got in'), { timeoutMs: 50 }).catch(
        (e: unknown) => e,
      );
    };
    const outcome = await replaceIfUnchanged(file(), Buffer.from('ours\n'), expected, {
      lockSources: sources,
      probe,
    });
    expect(outcome.kind).toBe('written');
    expect(tried).toMatchObject({ code: 'BUSY' });
  });
});
