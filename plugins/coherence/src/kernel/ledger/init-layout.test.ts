import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ensureLayout } from './init-layout.js';

let vmark: string;
beforeEach(async () => {
  vmark = join(await mkdtemp(join(tmpdir(), 'vmark-layout-')), '.vmark');
});
afterEach(async () => {
  await rm(join(vmark, '..'), { recursive: true, force: true });
});

describe('ensureLayout', () => {
  it('creates ledger/, .gitignore and .gitattributes', async () => {
    expect(await ensureLayout(vmark)).toEqual({ created: ['ledger/', '.gitignore', '.gitattributes'] });
    expect((await readdir(vmark)).sort()).toEqual(['.gitattributes', '.gitignore', 'ledger']);
    expect(await readFile(join(vmark, '.gitignore'), 'utf8')).toBe('index.db*\n');
    expect(await readFile(join(vmark, '.gitattributes'), 'utf8')).toBe('ledger/*.jsonl merge=union\n');
  });

  it('is idempotent', async () => {
    await ensureLayout(vmark);
    expect(await ensureLayout(vmark)).toEqual({ created: [] });
    expect(await readFile(join(vmark, '.gitignore'), 'utf8')).toBe('index.db*\n');
  });

  it('never overwrites existing files, and leaves existing ledger segments alone', async () => {
    await mkdir(join(vmark, 'ledger'), { recursive: true });
    await writeFile(join(vmark, '.gitignore'), 'index.db*\nmine\n');
    await writeFile(join(vmark, 'ledger', 'w.jsonl'), 'kept');
    expect(await ensureLayout(vmark)).toEqual({ created: ['.gitattributes'] });
    expect(await readFile(join(vmark, '.gitignore'), 'utf8')).toBe('index.db*\nmine\n');
    expect(await readFile(join(vmark, 'ledger', 'w.jsonl'), 'utf8')).toBe('kept');
  });
});
