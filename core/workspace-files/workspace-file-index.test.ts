import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FolderWatcher } from '../documents/folder-watcher.js';
import { HostVault } from '../vault/host-vault.js';
import { WorkspaceFileIndex } from './workspace-file-index.js';

let base: string;
let root: string;
let outside: string;
let home: string;
let folders: FolderWatcher;
let vault: HostVault;
let index: WorkspaceFileIndex | undefined;

beforeEach(async () => {
  base = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'vmark-file-index-')));
  root = path.join(base, 'vault');
  outside = path.join(base, 'outside');
  // $VMARK_HOME inside the workspace: it must never be listed.
  home = path.join(root, 'app-data');
  await fs.mkdir(home, { recursive: true });
  await fs.mkdir(outside);
  folders = new FolderWatcher();
  vault = new HostVault({ home });
  await vault.addWorkspaceRoot(root);
});
afterEach(async () => {
  index?.dispose();
  index = undefined;
  folders.dispose();
  await fs.rm(base, { recursive: true, force: true });
});

async function write(relative: string, text = 'x'): Promise<void> {
  await fs.mkdir(path.dirname(path.join(root, relative)), { recursive: true });
  await fs.writeFile(path.join(root, relative), text);
}

async function built(): Promise<WorkspaceFileIndex> {
  index = new WorkspaceFileIndex(root, folders, vault, [home]);
  await index.ready;
  return index;
}

const listed = (i: WorkspaceFileIndex) => [...i.index.paths()].sort();

/** Waits for the watcher to bring the index to `expected` (the test's own timeout bounds it). */
async function until(i: WorkspaceFileIndex, expected: string[]): Promise<void> {
  while (JSON.stringify(listed(i)) !== JSON.stringify([...expected].sort())) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('WorkspaceFileIndex', () => {
  it('lists what the file list shows: no hidden entries, no protected folders, nothing outside', async () => {
    await write('a.md');
    await write('notes/deep/b.md');
    await write('.github/workflows/ci.yml');
    await write('.git/config');
    await write('.obsidian/app.json');
    await write('.vmark/ledger.json');
    await write('app-data/settings.json');
    await fs.writeFile(path.join(outside, 'secret.md'), 'no');
    await fs.mkdir(path.join(outside, 'folder'));
    await fs.writeFile(path.join(outside, 'folder', 'c.md'), 'no');
    await fs.symlink(path.join(outside, 'secret.md'), path.join(root, 'leak.md'));
    await fs.symlink(path.join(outside, 'folder'), path.join(root, 'leak-folder'));
    await fs.symlink(path.join(root, 'a.md'), path.join(root, 'alias.md'));
    await fs.symlink(path.join(root, 'notes'), path.join(root, 'notes-link'));
    const i = await built();
    expect(listed(i)).toEqual(['.github/workflows/ci.yml', 'a.md', 'alias.md', 'notes/deep/b.md']);
    expect(i.status()).toMatchObject({ building: false, files: 4 });
    expect(i.status().notes).toEqual(['1 linked folders are not descended into.']);
  });

  it('follows a create, a delete and a rename, of files and of folders, from the workspace watcher', async () => {
    await write('a.md');
    await write('notes/b.md');
    const i = await built();
    await write('notes/new/c.md');
    await until(i, ['a.md', 'notes/b.md', 'notes/new/c.md']);
    await fs.rename(path.join(root, 'a.md'), path.join(root, 'notes', 'a-renamed.md'));
    await until(i, ['notes/a-renamed.md', 'notes/b.md', 'notes/new/c.md']);
    await fs.rename(path.join(root, 'notes'), path.join(root, 'archive'));
    await until(i, ['archive/a-renamed.md', 'archive/b.md', 'archive/new/c.md']);
    await fs.rm(path.join(root, 'archive', 'new'), { recursive: true });
    await fs.rm(path.join(root, 'archive', 'b.md'));
    await until(i, ['archive/a-renamed.md']);
    // A folder renamed to a hidden name leaves the list; a file moved out of the workspace too.
    await fs.rename(path.join(root, 'archive'), path.join(root, '.archive'));
    await until(i, []);
    await write('d.md');
    await until(i, ['d.md']);
    await fs.rename(path.join(root, 'd.md'), path.join(outside, 'd.md'));
    await until(i, []);
  });

  it('ends up as the disk is when files change while the first walk is under way', async () => {
    const expected = new Set<string>();
    for (let f = 0; f < 20; f++) {
      for (let i = 0; i < 20; i++) {
        await write(`f${f}/n${i}.md`);
        expected.add(`f${f}/n${i}.md`);
      }
    }
    index = new WorkspaceFileIndex(root, folders, vault, [home]);
    const changes: Promise<void>[] = [];
    for (let f = 0; f < 5; f++) {
      changes.push(fs.rm(path.join(root, `f${f}`, 'n0.md')));
      expected.delete(`f${f}/n0.md`);
      changes.push(write(`f${f + 5}/extra.md`));
      expected.add(`f${f + 5}/extra.md`);
    }
    changes.push(fs.rename(path.join(root, 'f19'), path.join(root, 'g19')));
    for (let i = 0; i < 20; i++) {
      expected.delete(`f19/n${i}.md`);
      expected.add(`g19/n${i}.md`);
    }
    await Promise.all(changes);
    await index.ready;
    await until(index, [...expected]);
  });

  it('lists a 2 GB sparse file by its name without reading it', async () => {
    const big = path.join(root, 'huge.md');
    const handle = await fs.open(big, 'w');
    await handle.truncate(2 * 1024 ** 3);
    await handle.close();
    // An atime older than the mtime: any read would move it (relatime and strictatime both do).
    await fs.utimes(big, new Date(1_000_000), new Date(2_000_000));
    const i = await built();
    expect(listed(i)).toEqual(['huge.md']);
    expect((await fs.stat(big)).atimeMs).toBe(1_000_000);
  });

  it('never lists a link made later that points outside the workspace', async () => {
    const i = await built();
    await fs.writeFile(path.join(outside, 'secret.md'), 'no');
    await fs.symlink(path.join(outside, 'secret.md'), path.join(root, 'leak.md'));
    await write('marker.md');
    await until(i, ['marker.md']);
    expect(i.index.query('leak', [], 10)).toEqual([]);
  });
});
