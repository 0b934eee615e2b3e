import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fingerprint, readFingerprint } from './file-fingerprint.js';

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

describe('readFingerprint', () => {
  it('matches the fingerprint of the bytes the host wrote', async () => {
    const file = path.join(tmp, 'a.md');
    await fs.writeFile(file, '# Title\n');
    await expect(readFingerprint(file)).resolves.toBe(fingerprint('# Title\n'));
  });

  it('notices another process changing one byte without changing the size or mtime', async () => {
    const file = path.join(tmp, 'a.md');
    await fs.writeFile(file, 'version A');
    const before = await readFingerprint(file);
    const { atime, mtime } = await fs.stat(file);
    await fs.writeFile(file, 'version B');
    await fs.utimes(file, atime, mtime);
    expect(await readFingerprint(file)).not.toBe(before);
  });

  it('streams a large file to the same digest', async () => {
    const file = path.join(tmp, 'big.md');
    const bytes = Buffer.alloc(10 * 1024 * 1024 + 7, 'z');
    await fs.writeFile(file, bytes);
    await expect(readFingerprint(file)).resolves.toBe(fingerprint(bytes));
  });

  it('is null for a missing file (deleted since it was read)', async () => {
    await expect(readFingerprint(path.join(tmp, 'gone.md'))).resolves.toBeNull();
    await expect(readFingerprint(path.join(tmp, 'no-folder', 'gone.md'))).resolves.toBeNull();
  });

  it('does not mistake a folder for a missing file', async () => {
    await expect(readFingerprint(tmp)).rejects.toMatchObject({ code: 'EISDIR' });
  });
});
