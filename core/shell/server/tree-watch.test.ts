import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FolderWatcher } from '../../documents/folder-watcher.js';
import { HostVault } from '../../vault/host-vault.js';
import { MAX_FOLLOWED_FOLDERS, TreeWatch } from './tree-watch.js';

let root: string;
let folders: FolderWatcher;
let heard: string[];
let tree: TreeWatch;
/** Resolves at the next change the page is told of. */
let nextChange: () => Promise<string>;

beforeEach(async () => {
  root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'vmark-tree-watch-')));
  folders = new FolderWatcher();
  heard = [];
  let waiting: ((path: string) => void) | undefined;
  tree = new TreeWatch(folders, (changed) => {
    heard.push(changed);
    waiting?.(changed);
  });
  nextChange = () => new Promise((resolve) => (waiting = resolve));
});
afterEach(async () => {
  tree.dispose();
  folders.dispose();
  await fs.rm(root, { recursive: true, force: true });
});

describe('TreeWatch', () => {
  it('tells the page, by the path it listed, when a followed folder changes; a burst is told once', async () => {
    const link = path.join(root, 'link');
    await fs.mkdir(path.join(root, 'real'));
    await fs.symlink(path.join(root, 'real'), link);
    tree.follow(link, path.join(root, 'real'));
    const changed = nextChange();
    await fs.writeFile(path.join(root, 'real', 'a.md'), 'a');
    await fs.rename(path.join(root, 'real', 'a.md'), path.join(root, 'real', 'b.md'));
    expect(await changed).toBe(link);
    expect(heard).toEqual([link]);
  });

  it('follows at most MAX_FOLLOWED_FOLDERS folders, and none once folded or disposed', async () => {
    for (let i = 0; i <= MAX_FOLLOWED_FOLDERS; i++) {
      const folder = path.join(root, `f${i}`);
      await fs.mkdir(folder);
      tree.follow(folder, folder);
    }
    expect(tree.size).toBe(MAX_FOLLOWED_FOLDERS);
    tree.fold(path.join(root, 'f0'));
    tree.fold(path.join(root, 'not-followed'));
    expect(tree.size).toBe(MAX_FOLLOWED_FOLDERS - 1);
    tree.dispose();
    expect(tree.size).toBe(0);
  });

  it('follows a folder it lists, and not a path that cannot be read as one', async () => {
    const vault = new HostVault({ home: path.join(root, '.home') });
    await vault.addWorkspaceRoot(root);
    await fs.mkdir(path.join(root, 'notes'));
    await fs.writeFile(path.join(root, 'notes', 'a.md'), 'a');
    await fs.writeFile(path.join(root, 'plain.md'), 'not a folder');
    expect((await tree.list(vault, path.join(root, 'notes'))).map((e) => e.name)).toEqual(['a.md']);
    expect(tree.size).toBe(1);
    // Resolved in scope, told to be followed, then the read fails: the watch goes with it.
    await expect(tree.list(vault, path.join(root, 'plain.md'))).rejects.toMatchObject({
      code: 'INVALID_PATH',
    });
    expect(tree.size).toBe(1);
    // A followed folder gone: listed again, it fails and is let go.
    await fs.rm(path.join(root, 'notes'), { recursive: true });
    await expect(tree.list(vault, path.join(root, 'notes'))).rejects.toBeDefined();
    expect(tree.size).toBe(0);
  });
});
