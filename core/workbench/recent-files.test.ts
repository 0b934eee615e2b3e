import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_RECENT_FILES, RECENT_FILES_FILE, RecentFiles } from './recent-files.js';

let home: string;
const root = path.join(path.sep, 'work', 'vault');
const other = path.join(path.sep, 'work', 'vault', 'nested');

beforeEach(async () => {
  home = await fs.mkdtemp(path.join(os.tmpdir(), 'vmark-recent-'));
});
afterEach(async () => {
  await fs.rm(home, { recursive: true, force: true });
});

describe('RecentFiles', () => {
  it('keeps the files a person opened per workspace, most recent first, across restarts', async () => {
    const recent = RecentFiles.in(home);
    await recent.opened(path.join(root, 'a.md'), [root]);
    await recent.opened(path.join(root, 'notes', 'b.md'), [root]);
    await recent.opened(path.join(root, 'a.md'), [root]);
    expect(await recent.list(root)).toEqual(['a.md', 'notes/b.md']);
    await recent.flushed();
    const again = RecentFiles.in(home);
    expect(await again.list(root)).toEqual(['a.md', 'notes/b.md']);
  });

  it('counts a file for the deepest workspace holding it, and none outside every workspace', async () => {
    const recent = RecentFiles.in(home);
    await recent.opened(path.join(other, 'c.md'), [root, other]);
    await recent.opened(path.join(path.sep, 'elsewhere', 'd.md'), [root, other]);
    expect(await recent.list(other)).toEqual(['c.md']);
    expect(await recent.list(root)).toEqual([]);
    await recent.flushed();
  });

  it('keeps at most the bound of files', async () => {
    const recent = RecentFiles.in(home);
    for (let i = 0; i < MAX_RECENT_FILES + 5; i++) await recent.opened(path.join(root, `${i}.md`), [root]);
    const list = await recent.list(root);
    expect(list).toHaveLength(MAX_RECENT_FILES);
    expect(list[0]).toBe(`${MAX_RECENT_FILES + 4}.md`);
    await recent.flushed();
  });

  it.each([
    ['not JSON', '{ nope', 'is not JSON'],
    ['another version', '{"version": 2, "workspaces": {}}', 'has version 2'],
    [
      'a list that is not of paths',
      '{"version": 1, "workspaces": {"/w": [1]}}',
      'something other than a list',
    ],
  ])('leaves a file that is %s as it is, and says why', async (_name, text, why) => {
    const file = path.join(home, RECENT_FILES_FILE);
    await fs.writeFile(file, text);
    const recent = RecentFiles.in(home);
    await recent.opened(path.join(root, 'a.md'), [root]);
    expect(await recent.list(root)).toEqual(['a.md']);
    await recent.flushed();
    expect(recent.problem).toContain(why);
    expect(await fs.readFile(file, 'utf8')).toBe(text);
  });
});
