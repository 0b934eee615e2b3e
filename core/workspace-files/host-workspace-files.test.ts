import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { WorkspaceFileChange } from '@vmark/sdk';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FolderWatcher } from '../documents/folder-watcher.js';
import { HostVault } from '../vault/host-vault.js';
import { HostWorkspaceFiles } from './host-workspace-files.js';

let base: string;
let root: string;
let inner: string;
let folders: FolderWatcher;
let files: HostWorkspaceFiles;

beforeEach(async () => {
  base = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'vmark-workspace-files-')));
  root = path.join(base, 'vault');
  inner = path.join(root, 'inner');
  await fs.mkdir(path.join(inner, 'deep'), { recursive: true });
  await fs.writeFile(path.join(root, 'a.md'), '# A\n');
  await fs.writeFile(path.join(inner, 'deep', 'b.md'), '# B\n');
  await fs.writeFile(path.join(base, 'outside.md'), 'secret\n');
  folders = new FolderWatcher();
  const vault = new HostVault({ home: path.join(base, 'home') });
  await vault.addWorkspaceRoot(root);
  await vault.addWorkspaceRoot(inner);
  files = new HostWorkspaceFiles(folders, vault, { home: path.join(base, 'home') });
});
afterEach(async () => {
  files.dispose();
  folders.dispose();
  await fs.rm(base, { recursive: true, force: true });
});

describe('the workspace files a plugin sees', () => {
  it('names the deepest root that holds a file, and none for a file outside', () => {
    expect(files.rootOf(path.join(root, 'a.md'))).toBe(root);
    expect(files.rootOf(path.join(inner, 'deep', 'b.md'))).toBe(inner);
    expect(files.rootOf(path.join(base, 'outside.md'))).toBeNull();
  });

  it("lists a root's files, the same index quick open uses, and no folder that is not a root", async () => {
    expect([...(await files.list(root))].sort()).toEqual(['a.md', 'inner/deep/b.md']);
    expect(files.indexOf(root).status().building).toBe(false);
    await expect(files.list(base)).rejects.toThrow(/no open workspace root/);
  });

  it('reads a text inside the root and under the bound, and nothing else', async () => {
    expect(await files.readText(root, 'a.md', 100)).toBe('# A\n');
    expect(await files.readText(root, 'a.md', 2)).toBeNull();
    expect(await files.readText(root, '../outside.md', 100)).toBeNull();
    expect(await files.readText(root, 'a.md\0', 100)).toBeNull();
    expect(await files.readText(root, 'missing.md', 100)).toBeNull();
    await fs.symlink(path.join(base, 'outside.md'), path.join(root, 'link.md'));
    expect(await files.readText(root, 'link.md', 100)).toBeNull();
  });

  it("tells a change by its folder relative to the root and the entry's name", async () => {
    await files.list(root);
    const heard: WorkspaceFileChange[] = [];
    const got = new Promise<void>((resolve) =>
      files.onChange(root, (change) => {
        heard.push(change);
        if (change.name === 'c.md') resolve();
      }),
    );
    await fs.writeFile(path.join(inner, 'deep', 'c.md'), 'new\n');
    await got;
    expect(heard).toContainEqual({ folder: 'inner/deep', name: 'c.md' });
  });
});
