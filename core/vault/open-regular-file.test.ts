import { execFileSync } from 'node:child_process';
import { closeSync, fstatSync, openSync, readlinkSync, readSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { watchForLateWrites } from './late-writes.js';
import { openRegularDescriptor, readWholeFile, releaseDescriptor } from './open-regular-file.js';

let dir: string;

beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'vmark-open-regular-'));
});

afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

/** Where descriptor `fd` of this process leads, or null once it is closed. */
function openOn(fd: number): string | null {
  try {
    return readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    return null;
  }
}

describe('openRegularDescriptor', () => {
  it('opens a regular file read-only on a plain descriptor, with its stats', async () => {
    const file = path.join(dir, 'note.md');
    await fs.writeFile(file, 'hello\n');
    const opened = openRegularDescriptor(file);
    if (opened.kind !== 'file') throw new Error(`expected a file, got ${opened.kind}`);
    try {
      expect(opened.stats.ino).toBe((await fs.stat(file, { bigint: true })).ino);
      expect(fstatSync(opened.handle).size).toBe(6);
      expect(await readWholeFile(opened.handle)).toEqual(Buffer.from('hello\n'));
    } finally {
      closeSync(opened.handle);
    }
  });

  it('opens nothing that is missing, a folder, a link or a named pipe (answered at once)', async () => {
    const fifo = path.join(dir, 'pipe');
    execFileSync('mkfifo', [fifo]);
    await fs.mkdir(path.join(dir, 'folder'));
    await fs.writeFile(path.join(dir, 'real.md'), 'x');
    await fs.symlink(path.join(dir, 'real.md'), path.join(dir, 'link.md'));
    expect(openRegularDescriptor(path.join(dir, 'none.md'))).toEqual({ kind: 'missing' });
    expect(openRegularDescriptor(path.join(dir, 'none', 'deeper.md'))).toEqual({ kind: 'missing' });
    expect(openRegularDescriptor(fifo)).toEqual({ kind: 'not-a-file', type: 'fifo' });
    expect(openRegularDescriptor(path.join(dir, 'folder'))).toEqual({ kind: 'not-a-file', type: 'folder' });
    expect(openRegularDescriptor(path.join(dir, 'link.md'))).toEqual({ kind: 'not-a-file', type: 'symlink' });
  });
});

describe('readWholeFile', () => {
  it('reads every byte from the start, whatever was read before, and past a first chunk', async () => {
    const file = path.join(dir, 'big.md');
    const bytes = Buffer.alloc(70_000, 'ab');
    await fs.writeFile(file, bytes);
    const fd = openSync(file, 'r');
    try {
      readSync(fd, Buffer.alloc(10), 0, 10, null);
      // Grown after the size the first chunk was allocated for: the rest is read too.
      await fs.appendFile(file, 'tail');
      const read = await readWholeFile(fd);
      // Compared as buffers: a deep equality walks 70,000 bytes one by one.
      expect(read.length).toBe(bytes.length + 4);
      expect(read.equals(Buffer.concat([bytes, Buffer.from('tail')]))).toBe(true);
    } finally {
      closeSync(fd);
    }
  });
});

describe('releaseDescriptor', () => {
  it('closes the descriptor on the thread pool', async () => {
    const file = path.join(dir, 'note.md');
    await fs.writeFile(file, 'x');
    const fd = openSync(file, 'r');
    releaseDescriptor(fd);
    await vi.waitFor(() => expect(openOn(fd)).not.toBe(file), { timeout: 5_000, interval: 5 });
  });
});

describe('watchForLateWrites', () => {
  it('closes the oldest watched version once more than 64 are watched, and only that one', async () => {
    const file = path.join(dir, 'note.md');
    await fs.writeFile(file, 'base\n');
    const stats = await fs.stat(file, { bigint: true });
    const fds = Array.from({ length: 65 }, () => openSync(file, 'r'));
    for (const fd of fds)
      watchForLateWrites(fd, { stats, sha256: 'unused: nothing changes' }, () => undefined);
    await vi.waitFor(() => expect(openOn(fds[0]!)).not.toBe(file), { timeout: 5_000, interval: 5 });
    expect(fds.slice(1).map(openOn)).toEqual(fds.slice(1).map(() => file));
  });
});
