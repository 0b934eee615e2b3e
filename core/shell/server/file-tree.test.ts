import { writeFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { HostVault } from '../../vault/host-vault.js';
import { listFolder } from './file-tree.js';

let vault: HostVault;
let root: string;
let outside: string;

beforeEach(async () => {
  root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'vmark-tree-')));
  outside = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'vmark-tree-outside-')));
  await fs.mkdir(path.join(root, 'b-folder'));
  await fs.mkdir(path.join(root, '.github'));
  await fs.mkdir(path.join(root, '.git'));
  await fs.writeFile(path.join(root, 'note 10.md'), '');
  await fs.writeFile(path.join(root, 'note 9.md'), '');
  await fs.writeFile(path.join(root, '.DS_Store'), '');
  await fs.writeFile(path.join(outside, 'secret.md'), '');
  await fs.symlink(outside, path.join(root, 'escape'));
  await fs.symlink(path.join(root, 'b-folder'), path.join(root, 'inside-link'));
  vault = new HostVault({ home: path.join(outside, 'home') });
  await vault.addWorkspaceRoot(root);
});

describe('listFolder', () => {
  it('lists folders first, in natural order, without hidden entries but with .github', async () => {
    const { folder, entries } = await listFolder(vault, root);
    expect(folder).toBe(root);
    expect(entries.map((e) => [e.name, e.type])).toEqual([
      ['.github', 'folder'],
      ['b-folder', 'folder'],
      ['inside-link', 'folder'],
      ['note 9.md', 'file'],
      ['note 10.md', 'file'],
    ]);
    expect(entries[1]!.path).toBe(path.join(root, 'b-folder'));
  });

  it('leaves out links that lead out of the scope, and refuses folders outside it', async () => {
    expect((await listFolder(vault, root)).entries.map((e) => e.name)).not.toContain('escape');
    await expect(listFolder(vault, outside)).rejects.toMatchObject({ code: 'INVALID_PATH' });
    await expect(listFolder(vault, path.join(root, 'escape'))).rejects.toMatchObject({
      code: 'INVALID_PATH',
    });
    await expect(listFolder(vault, path.join(root, '..'))).rejects.toMatchObject({ code: 'INVALID_PATH' });
  });

  it('tells the canonical folder before reading it, so a watch set there misses nothing', async () => {
    const told: string[] = [];
    const { entries } = await listFolder(vault, path.join(root, 'inside-link'), (folder) => {
      told.push(folder);
      // A file another program makes right after the watch is set: the listing has it.
      writeFileSync(path.join(folder, 'made meanwhile.md'), '');
    });
    expect(told).toEqual([path.join(root, 'b-folder')]);
    expect(entries.map((e) => e.name)).toEqual(['made meanwhile.md']);
  });

  it('tells nothing for a folder it refuses', async () => {
    const told: string[] = [];
    await expect(listFolder(vault, outside, (folder) => told.push(folder))).rejects.toMatchObject({
      code: 'INVALID_PATH',
    });
    expect(told).toEqual([]);
  });
});
