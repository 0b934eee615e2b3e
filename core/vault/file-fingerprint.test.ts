import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { changedOnDisk, type DiskState, diskStateOf, fingerprint } from './file-fingerprint.js';

let tmp: string;

beforeEach(async () => {
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'vmark-fingerprint-'));
});

afterEach(async () => {
  await fs.rm(tmp, { recursive: true, force: true });
});

describe('fingerprint', () => {
  it('is the SHA-256 hex of the bytes', () => {
    expect(fingerprint(new TextEncoder().encode('abc'))).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
    expect(fingerprint(new Uint8Array())).toBe(
      'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    );
  });

  it('hashes a string as the UTF-8 bytes a save writes', () => {
    expect(fingerprint('中文 ☕\n')).toBe(fingerprint(Buffer.from('中文 ☕\n', 'utf8')));
  });
});

/** What the host would remember after reading `file` now. */
async function known(file: string): Promise<DiskState> {
  const bytes = await fs.readFile(file);
  return diskStateOf(await fs.stat(file, { bigint: true }), bytes);
}

describe('changedOnDisk', () => {
  it('is false while the file holds the bytes the host knows', async () => {
    const file = path.join(tmp, 'a.md');
    await fs.writeFile(file, '# Title\n');
    expect(await changedOnDisk(file, await known(file))).toBe(false);
  });

  it('is false after a mere touch: the bytes decide, not the time', async () => {
    const file = path.join(tmp, 'a.md');
    await fs.writeFile(file, '# Title\n');
    const state = await known(file);
    const later = new Date(Date.now() + 5_000);
    await fs.utimes(file, later, later);
    expect(await changedOnDisk(file, state)).toBe(false);
  });

  it('notices another process changing one byte without changing the size or mtime', async () => {
    const file = path.join(tmp, 'a.md');
    await fs.writeFile(file, 'version A');
    const state = await known(file);
    const { atime, mtime } = await fs.stat(file);
    // Replaced (a new inode), as an editor's atomic save does, with the old times put back.
    await fs.writeFile(`${file}.new`, 'version B');
    await fs.utimes(`${file}.new`, atime, mtime);
    await fs.rename(`${file}.new`, file);
    expect(await changedOnDisk(file, state)).toBe(true);
  });

  it('streams a large file to compare its digest', async () => {
    const file = path.join(tmp, 'big.md');
    await fs.writeFile(file, Buffer.alloc(10 * 1024 * 1024 + 7, 'z'));
    const state = await known(file);
    const later = new Date(Date.now() + 5_000);
    await fs.utimes(file, later, later);
    expect(await changedOnDisk(file, state)).toBe(false);
  });

  it('counts a deleted file as changed, and a file where none was expected', async () => {
    const file = path.join(tmp, 'a.md');
    await fs.writeFile(file, 'x');
    const state = await known(file);
    await fs.rm(file);
    expect(await changedOnDisk(file, state)).toBe(true);
    expect(await changedOnDisk(path.join(tmp, 'no-folder', 'gone.md'), null)).toBe(false);
    await fs.writeFile(file, 'y');
    expect(await changedOnDisk(file, null)).toBe(true);
  });

  it('counts a named pipe put in the file’s place as changed, without blocking on it', async () => {
    const file = path.join(tmp, 'a.md');
    await fs.writeFile(file, 'x');
    const state = await known(file);
    await fs.rm(file);
    execFileSync('mkfifo', [file]);
    expect(await changedOnDisk(file, state)).toBe(true);
  });

  it('counts a folder in the file’s place as changed', async () => {
    const file = path.join(tmp, 'a.md');
    await fs.writeFile(file, 'x');
    const state = await known(file);
    await fs.rm(file);
    await fs.mkdir(file);
    expect(await changedOnDisk(file, state)).toBe(true);
  });
});
