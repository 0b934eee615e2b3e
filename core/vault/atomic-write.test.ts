import type * as NodeFs from 'node:fs';
import { readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { domainErrorOf } from '@vmark/sdk/testing';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { writeFileAtomic } from './atomic-write.js';
import { ownerTag } from './process-owner.js';
import { TEMP_SUFFIX } from './temp-files.js';

/** Called with each synchronous rename the code under test makes, before it; may throw. */
const syncRenames = vi.hoisted(() => ({ seen: undefined as ((from: string) => void) | undefined }));

vi.mock('node:fs', async (importOriginal) => {
  const actual = await importOriginal<typeof NodeFs>();
  const renameSync: typeof actual.renameSync = (from, to) => {
    syncRenames.seen?.(String(from));
    actual.renameSync(from, to);
  };
  return { ...actual, default: { ...actual, renameSync }, renameSync };
});

let tmp: string;
let target: string;

beforeEach(async () => {
  tmp = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'vmark-write-')));
  target = path.join(tmp, 'note.md');
});

afterEach(async () => {
  vi.restoreAllMocks();
  syncRenames.seen = undefined;
  await fs.rm(tmp, { recursive: true, force: true });
});

async function tempFilesIn(folder: string): Promise<string[]> {
  return (await fs.readdir(folder)).filter((name) => name.endsWith(TEMP_SUFFIX));
}

async function modeOf(file: string): Promise<number> {
  return (await fs.stat(file)).mode & 0o7777;
}

describe('writeFileAtomic', () => {
  it('replaces the content of an existing file', async () => {
    await fs.writeFile(target, 'old content that is longer than the new one');
    await writeFileAtomic(target, 'new');
    expect(await fs.readFile(target, 'utf8')).toBe('new');
  });

  it('writes strings as UTF-8 and bytes as they are', async () => {
    await writeFileAtomic(target, '中文 ☕');
    expect(await fs.readFile(target)).toEqual(Buffer.from('中文 ☕', 'utf8'));
    const bytes = new Uint8Array([0, 255, 10, 13, 0]);
    await writeFileAtomic(target, bytes);
    expect(new Uint8Array(await fs.readFile(target))).toEqual(bytes);
  });

  it('creates a new file in an existing folder', async () => {
    await writeFileAtomic(target, 'fresh');
    expect(await fs.readFile(target, 'utf8')).toBe('fresh');
    expect((await fs.stat(target)).isFile()).toBe(true);
  });

  it.each([0o600, 0o640, 0o755, 0o664])('keeps the mode %o of the file it replaces', async (mode) => {
    await fs.writeFile(target, 'old');
    await fs.chmod(target, mode);
    await writeFileAtomic(target, 'new');
    expect(await modeOf(target)).toBe(mode);
  });

  it('leaves no temp file behind after a successful save', async () => {
    await fs.writeFile(target, 'old');
    await writeFileAtomic(target, 'new');
    await writeFileAtomic(path.join(tmp, 'other.md'), 'x');
    expect((await fs.readdir(tmp)).sort()).toEqual(['note.md', 'other.md']);
  });

  it('keeps a trailing space in the name: saving "a.md " leaves "a.md" alone', async () => {
    await fs.writeFile(path.join(tmp, 'a.md'), 'plain');
    await writeFileAtomic(path.join(tmp, 'a.md '), 'spaced');
    expect(await fs.readFile(path.join(tmp, 'a.md'), 'utf8')).toBe('plain');
    expect(await fs.readFile(path.join(tmp, 'a.md '), 'utf8')).toBe('spaced');
  });

  it('saves a file whose name uses all 255 bytes (the temp name stays within NAME_MAX)', async () => {
    const longName = path.join(tmp, `${'é'.repeat(126)}.md`);
    expect(Buffer.byteLength(path.basename(longName))).toBe(255);
    await writeFileAtomic(longName, 'long');
    expect(await fs.readFile(longName, 'utf8')).toBe('long');
    expect(await tempFilesIn(tmp)).toEqual([]);
  });

  it('replaces a symlink at the target path instead of writing through it', async () => {
    // Why callers must pass the canonical path: rename swaps the link itself.
    const elsewhere = path.join(tmp, 'elsewhere.md');
    await fs.writeFile(elsewhere, 'ORIGINAL');
    await fs.symlink(elsewhere, target);
    await writeFileAtomic(target, 'new');
    expect((await fs.lstat(target)).isSymbolicLink()).toBe(false);
    expect(await fs.readFile(target, 'utf8')).toBe('new');
    expect(await fs.readFile(elsewhere, 'utf8')).toBe('ORIGINAL');
  });
});

describe('writeFileAtomic refusals', () => {
  it('refuses a read-only (0o444) file with READ_ONLY and leaves it unchanged', async () => {
    await fs.writeFile(target, 'protected');
    await fs.chmod(target, 0o444);
    const error = await domainErrorOf(writeFileAtomic(target, 'overwritten'));
    expect(error.code).toBe('READ_ONLY');
    expect(error.message).toContain(JSON.stringify(target));
    expect(await fs.readFile(target, 'utf8')).toBe('protected');
    expect(await modeOf(target)).toBe(0o444);
    expect(await tempFilesIn(tmp)).toEqual([]);
  });

  it('refuses a target that is a folder and leaves no temp file', async () => {
    await fs.mkdir(target);
    await fs.writeFile(path.join(target, 'inner.md'), 'keep');
    const error = await domainErrorOf(writeFileAtomic(target, 'x'));
    expect(error.code).toBe('INVALID_PATH');
    expect(error.message).toContain('is a folder');
    expect(await fs.readFile(path.join(target, 'inner.md'), 'utf8')).toBe('keep');
    expect(await tempFilesIn(tmp)).toEqual([]);
  });

  it('says so when the folder does not exist', async () => {
    const inMissing = path.join(tmp, 'missing', 'new.md');
    const error = await domainErrorOf(writeFileAtomic(inMissing, 'x'));
    expect(error.code).toBe('INVALID_PATH');
    expect(error.message).toContain(`folder ${JSON.stringify(path.join(tmp, 'missing'))} does not exist`);
  });

  it('refuses a path whose "folder" is a file', async () => {
    await fs.writeFile(target, 'a file');
    const error = await domainErrorOf(writeFileAtomic(path.join(target, 'child.md'), 'x'));
    expect(error.code).toBe('INVALID_PATH');
    expect(error.message).toContain('a part of its folder path is a file');
  });
});

describe('what a save refuses before it writes', () => {
  it('saves over a writable file and as a new file in an existing folder', async () => {
    await fs.writeFile(target, 'x');
    await writeFileAtomic(target, 'y');
    await writeFileAtomic(path.join(tmp, 'new.md'), 'z');
    expect(await fs.readFile(target, 'utf8')).toBe('y');
    expect(await fs.readFile(path.join(tmp, 'new.md'), 'utf8')).toBe('z');
  });

  it('refuses a file with no write bit by mode, even for root (where access(W_OK) succeeds)', async () => {
    await fs.writeFile(target, 'x');
    await fs.chmod(target, 0o444);
    expect((await domainErrorOf(writeFileAtomic(target, 'y'))).code).toBe('READ_ONLY');
    expect(await fs.readFile(target, 'utf8')).toBe('x');
    await fs.chmod(target, 0o200);
    await writeFileAtomic(target, 'y');
  });

  it('refuses a new file in a missing folder with INVALID_PATH', async () => {
    const error = await domainErrorOf(writeFileAtomic(path.join(tmp, 'nope', 'new.md'), 'y'));
    expect(error.code).toBe('INVALID_PATH');
    expect(error.message).toContain('does not exist');
  });
});

describe('crash safety', () => {
  it('a concurrent reader only ever sees the whole old or the whole new content (20 MB)', async () => {
    const size = 20 * 1024 * 1024;
    const versions = [Buffer.alloc(size, 'a'), Buffer.alloc(size, 'b'), Buffer.alloc(size - 4096, 'c')];
    await fs.writeFile(target, versions[0] ?? '');
    let writing = true;
    let reads = 0;
    const torn: string[] = [];
    const reader = (async () => {
      while (writing) {
        const seen = await fs.readFile(target);
        reads += 1;
        if (!versions.some((version) => version.equals(seen))) {
          torn.push(
            `read ${reads}: ${seen.length} bytes starting ${JSON.stringify(seen.subarray(0, 8).toString())}`,
          );
        }
        // Yields so the writer's callbacks interleave with the reads.
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    try {
      for (const version of [1, 2, 0, 1, 2]) await writeFileAtomic(target, versions[version] ?? '');
    } finally {
      writing = false;
      await reader;
    }
    expect(torn).toEqual([]);
    expect(reads).toBeGreaterThan(0);
    expect((await fs.readFile(target)).equals(versions[2] ?? Buffer.alloc(0))).toBe(true);
    expect(await tempFilesIn(tmp)).toEqual([]);
  });

  it('a failure at the rename step (a simulated crash) leaves the original intact and no temp file', async () => {
    await fs.writeFile(target, 'ORIGINAL');
    const crash = Object.assign(new Error('EIO: simulated failure, rename'), { code: 'EIO' });
    const rename = vi.fn(() => {
      throw crash;
    });
    syncRenames.seen = rename;
    await expect(writeFileAtomic(target, 'NEW CONTENT')).rejects.toBe(crash);
    syncRenames.seen = undefined;
    expect(rename).toHaveBeenCalledOnce();
    expect(await fs.readFile(target, 'utf8')).toBe('ORIGINAL');
    expect(await tempFilesIn(tmp)).toEqual([]);
  });

  it('the temp file is complete on disk before the rename makes it visible', async () => {
    await fs.writeFile(target, 'ORIGINAL');
    const payload = 'x'.repeat(1 << 20);
    let tempAtRename = '';
    syncRenames.seen = (from) => {
      tempAtRename = from;
      expect(readFileSync(from, 'utf8')).toBe(payload);
      throw Object.assign(new Error('stop before rename'), { code: 'EIO' });
    };
    await expect(writeFileAtomic(target, payload)).rejects.toThrow('stop before rename');
    syncRenames.seen = undefined;
    // The temp file sat next to the target, hidden, and was cleaned up.
    expect(path.dirname(tempAtRename)).toBe(tmp);
    // Named after this process, so that a sweep can tell it from one a crash left.
    expect(path.basename(tempAtRename)).toBe(
      `.note.md.${ownerTag()}.${path.basename(tempAtRename).split('.').at(-2)!}.vmark-tmp`,
    );
    expect(await tempFilesIn(tmp)).toEqual([]);
    expect(await fs.readFile(target, 'utf8')).toBe('ORIGINAL');
  });
});
