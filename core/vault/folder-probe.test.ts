import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { domainErrorOf } from '@vmark/sdk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeFolder } from './folder-probe.js';

let root: string;
let outside: string;

beforeAll(async () => {
  root = await realpath(await mkdtemp(path.join(os.tmpdir(), 'vmark-probe-')));
  outside = path.join(root, 'outside');
  await mkdir(path.join(outside, 'secret'), { recursive: true });
  await writeFile(path.join(root, 'file.md'), 'x');
  await symlink(path.join(outside, 'secret'), path.join(root, 'to-secret'));
  await symlink(path.join(root, 'loop-b'), path.join(root, 'loop-a'));
  await symlink(path.join(root, 'loop-a'), path.join(root, 'loop-b'));
});
afterAll(() => rm(root, { recursive: true, force: true }));

describe('probeFolder', () => {
  it('resolves a folder, and a link to one, to the canonical folder', async () => {
    expect(await probeFolder(outside)).toEqual({ path: outside, state: 'folder' });
    expect(await probeFolder(path.join(root, 'to-secret'))).toEqual({
      path: path.join(outside, 'secret'),
      state: 'folder',
    });
    expect(await probeFolder(path.join(root, 'to-secret', '..', 'outside'))).toEqual({
      path: outside,
      state: 'folder',
    });
  });

  it('resolves /proc/self/cwd to the folder it names', async () => {
    expect(await probeFolder('/proc/self/cwd')).toEqual({
      path: await realpath(process.cwd()),
      state: 'folder',
    });
  });

  it('describes a file, a missing path (where it would be) and a loop of links without failing', async () => {
    expect(await probeFolder(path.join(root, 'file.md'))).toEqual({
      path: path.join(root, 'file.md'),
      state: 'not-folder',
    });
    expect(await probeFolder(path.join(root, 'to-secret', 'nope', 'deeper'))).toEqual({
      path: path.join(outside, 'secret', 'nope', 'deeper'),
      state: 'missing',
    });
    expect(await probeFolder(path.join(root, 'file.md', 'below'))).toEqual({
      path: path.join(root, 'file.md', 'below'),
      state: 'missing',
    });
    expect(await probeFolder(path.join(root, 'loop-a'))).toEqual({
      path: path.join(root, 'loop-a'),
      state: 'unreadable',
    });
  });

  it('describes a FIFO without waiting on it', async () => {
    const fifo = path.join(root, 'pipe');
    execFileSync('mkfifo', [fifo]);
    expect(await probeFolder(fifo)).toEqual({ path: fifo, state: 'not-folder' });
  });

  it.each([
    ['a relative path', 'notes'],
    ['a blank path', '  '],
    ['a NUL byte', '/tmp/a\0b'],
  ])('refuses %s without looking at the disk', async (_name, input) => {
    expect((await domainErrorOf(probeFolder(input))).code).toBe('INVALID_PATH');
  });
});
