import { appendFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { HostHooks } from '@vmark/sdk';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HostDocumentStore } from '../../documents/document-store.js';
import { FolderWatcher } from '../../documents/folder-watcher.js';
import { KindRegistry } from '../../documents/kind-registry.js';
import { WriteAcks } from '../../documents/write-acks.js';
import { CheckpointStore } from '../../history/checkpoint-store.js';
import { restoreCheckpoint } from '../../history/restore-checkpoint.js';
import { createHostHooks } from '../../hooks/host-hooks.js';
import { LogHub } from '../../log/log-hub.js';
import { HostVault } from '../../vault/host-vault.js';
import { checkEntryName } from '../../vault/entry-name.js';
import { HostWorkbench } from '../../workbench/workbench.js';
import { FileOperations } from './file-operations.js';

/*
 * The file list's operations on real files: the real vault guard, document store, workbench,
 * checkpoint store and restore; the `filesMoved` hook tapped as a plugin would.
 */

let base: string;
let root: string;
let home: string;
let trash: string;
let folders: FolderWatcher;
let vault: HostVault;
let documents: HostDocumentStore;
let workbench: HostWorkbench;
let store: CheckpointStore;
let hooks: HostHooks;
let files: FileOperations;

beforeEach(async () => {
  base = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'vmark-file-ops-')));
  root = path.join(base, 'vault');
  home = path.join(base, 'home');
  trash = path.join(base, 'data', 'Trash');
  await fs.mkdir(root, { recursive: true });
  await fs.mkdir(home);
  folders = new FolderWatcher();
  vault = new HostVault({ home });
  await vault.addWorkspaceRoot(root);
  const kinds = new KindRegistry();
  kinds.register({ id: 'text', priority: 0, detect: () => true });
  hooks = createHostHooks();
  documents = new HostDocumentStore(
    kinds,
    hooks,
    vault,
    folders,
    new LogHub(() => undefined),
    new WriteAcks(),
  );
  workbench = new HostWorkbench(documents, vault, hooks);
  store = new CheckpointStore({ home });
  files = operations(trash);
});
afterEach(async () => {
  documents.dispose();
  folders.dispose();
  await fs.rm(base, { recursive: true, force: true });
});

function operations(systemTrash: string | null): FileOperations {
  return new FileOperations(
    { rootsOf: () => [root] },
    workbench,
    vault,
    documents,
    store,
    hooks,
    systemTrash,
  );
}

const at = (relative: string) => path.join(root, ...relative.split('/'));
const read = (relative: string) => fs.readFile(at(relative), 'utf8');
const exists = (target: string) =>
  fs.lstat(target).then(
    () => true,
    () => false,
  );

async function write(relative: string, text: string): Promise<void> {
  await fs.mkdir(path.dirname(at(relative)), { recursive: true });
  await fs.writeFile(at(relative), text);
}

/** A stand-in for the document plugin: `[[<old name>]]` becomes `[[<new name>]]` in every `.md`. */
function tapWikilinks(during?: (file: string) => Promise<void> | void): void {
  hooks.filesMoved.tapPromise('test', (proposal) => {
    const names = proposal.moves.map((m) => [stem(m.from), stem(m.to)] as const);
    const rewrites = proposal.files
      .filter((file) => file.endsWith('.md'))
      .map((file) => ({
        path: proposal.moves.find((m) => m.from === file)?.to ?? file,
        rewrite: (text: string) => {
          let count = 0;
          let next = text;
          for (const [from, to] of names) next = next.replaceAll(`[[${from}]]`, () => (count++, `[[${to}]]`));
          return count === 0 ? null : { text: next, count };
        },
      }));
    if (during !== undefined) {
      // The outside writer: it edits a linking note after the host read it and before it writes.
      for (const rewrite of rewrites) {
        const inner = rewrite.rewrite;
        let once = false;
        Object.assign(rewrite, {
          rewrite: (text: string) => {
            const result = inner(text);
            if (result !== null && !once) {
              once = true;
              pending.push(Promise.resolve(during(rewrite.path)));
            }
            return result;
          },
        });
      }
    }
    return Promise.resolve({ ...proposal, rewrites: [...proposal.rewrites, ...rewrites] });
  });
}
const pending: Promise<void>[] = [];
const stem = (file: string) => file.slice(file.lastIndexOf('/') + 1).replace(/\.md$/, '');

describe('names', () => {
  it.each([
    ['a/b.md', 'folder separator'],
    ['..', 'names a folder itself'],
    ['.', 'names a folder itself'],
    ['a\0b.md', 'NUL'],
    ['', 'empty'],
    ['   ', 'only spaces'],
    ['.vmark', 'protected'],
    ['.VMARK', 'protected'],
    ['x'.repeat(256), 'longer than 255 bytes'],
  ])('refuses %j', (name, reason) => {
    expect(() => checkEntryName(name)).toThrow(reason);
  });

  it('refuses device names and Windows characters only where they are Windows names', () => {
    for (const name of ['CON', 'nul.txt', 'com1.md', 'LPT3', 'a:b', 'a\\b'])
      expect(() => checkEntryName(name, 'win32'), name).toThrow(/Windows|separator/);
    expect(checkEntryName('CON', 'linux')).toBe('CON');
    expect(checkEntryName('a\\b', 'linux')).toBe('a\\b');
  });

  it('keeps trailing spaces and dots exactly', async () => {
    await write('a.md', 'x');
    const { path: created } = await files.create('main', { folder: root, name: 'Plan.md  ', type: 'file' });
    expect(path.basename(created)).toBe('Plan.md  ');
    expect(await fs.readdir(root)).toContain('Plan.md  ');
    const renamed = await files.rename('main', { path: at('a.md'), name: 'b. ' });
    expect(path.basename(renamed.path)).toBe('b. ');
    expect(await read('b. ')).toBe('x');
  });
});

describe('create', () => {
  it('creates a file and a folder, never over an existing one', async () => {
    await write('notes/Plan.md', 'keep me');
    const folder = await files.create('main', { folder: root, name: 'ideas', type: 'folder' });
    expect((await fs.stat(folder.path)).isDirectory()).toBe(true);
    await expect(
      files.create('main', { folder: at('notes'), name: 'Plan.md', type: 'file' }),
    ).rejects.toThrow(/already exists/);
    expect(await read('notes/Plan.md')).toBe('keep me');
    const untitled = await files.create('main', {
      folder: at('notes'),
      name: 'Plan.md',
      type: 'file',
      unique: true,
    });
    expect(path.basename(untitled.path)).toBe('Plan 2.md');
  });

  it('refuses a protected folder, a way out through a link, and outside the workspace', async () => {
    await fs.mkdir(at('.vmark'));
    await expect(files.create('main', { folder: at('.vmark'), name: 'x.md', type: 'file' })).rejects.toThrow(
      /\.vmark folder/,
    );
    const outside = path.join(base, 'outside');
    await fs.mkdir(outside);
    await fs.symlink(outside, at('out'));
    await expect(files.create('main', { folder: at('out'), name: 'x.md', type: 'file' })).rejects.toThrow(
      /symbolic link|outside/,
    );
    await expect(files.create('main', { folder: base, name: 'x.md', type: 'file' })).rejects.toThrow(
      /outside/,
    );
    await expect(files.create('main', { folder: home, name: 'x.md', type: 'file' })).rejects.toThrow(
      /outside|VMARK_HOME/,
    );
    expect(await fs.readdir(outside)).toEqual([]);
  });
});

describe('rename and move', () => {
  it('refuses a rename onto an existing file: both stay as they were', async () => {
    await write('a.md', 'A');
    await write('b.md', 'B');
    await expect(files.rename('main', { path: at('a.md'), name: 'b.md' })).rejects.toThrow(/already exists/);
    expect([await read('a.md'), await read('b.md')]).toEqual(['A', 'B']);
  });

  it('refuses a move onto an existing file, into a protected folder, through a link out, into itself', async () => {
    await write('a.md', 'A');
    await write('sub/a.md', 'other A');
    await fs.mkdir(at('.vmark'));
    const outside = path.join(base, 'outside');
    await fs.mkdir(outside);
    await fs.symlink(outside, at('out'));
    await expect(files.move('main', { path: at('a.md'), folder: at('sub') })).rejects.toThrow(
      /already exists/,
    );
    await expect(files.move('main', { path: at('a.md'), folder: at('.vmark') })).rejects.toThrow(/\.vmark/);
    await expect(files.move('main', { path: at('a.md'), folder: at('out') })).rejects.toThrow(
      /symbolic link|outside/,
    );
    await expect(files.move('main', { path: at('sub'), folder: at('sub') })).rejects.toThrow(/into itself/);
    await expect(files.rename('main', { path: root, name: 'elsewhere' })).rejects.toThrow(
      /workspace folder itself/,
    );
    expect([await read('a.md'), await read('sub/a.md')]).toEqual(['A', 'other A']);
    expect(await fs.readdir(outside)).toEqual([]);
  });

  it('moves a folder; an open tab follows with its unsaved edits', async () => {
    await write('notes/Plan.md', 'on disk');
    await fs.mkdir(at('archive'));
    const { tabId } = await workbench.openFile(at('notes/Plan.md'));
    const documentId = workbench.resolveTab(tabId).documentId;
    await documents.replace(documentId, 'unsaved edit', { origin: { kind: 'editor' } });
    const moved = await files.move('main', { path: at('notes'), folder: at('archive') });
    expect(moved.path).toBe(at('archive/notes'));
    const document = documents.get(documentId);
    expect(document).toMatchObject({
      filePath: at('archive/notes/Plan.md'),
      content: 'unsaved edit',
      dirty: true,
    });
    await documents.save(documentId);
    expect(await read('archive/notes/Plan.md')).toBe('unsaved edit');
    expect(await exists(at('notes'))).toBe(false);
  });

  it('rewrites the links other notes hold, a checkpoint each, restorable', async () => {
    tapWikilinks();
    await write('Plan.md', '# Plan');
    await write('index.md', 'See [[Plan]] and [[Plan]].');
    await write('other.md', 'Nothing here.');
    const moved = await files.rename('main', { path: at('Plan.md'), name: 'Roadmap.md' });
    expect(moved.linkUpdate).toEqual({ links: 2, notes: 1, left: [] });
    expect(await read('index.md')).toBe('See [[Roadmap]] and [[Roadmap]].');
    const entries = await store.list();
    expect(entries.map((e) => [e.tool, e.filePath])).toEqual([['files.move', at('index.md')]]);
    await restoreCheckpoint({ store, workbench, documents, tabOutlivesCall: true }, entries[0]!.id);
    expect(await read('index.md')).toBe('See [[Plan]] and [[Plan]].');
  });

  it('loses nothing an outside writer puts in a linking note during the rewrite', async () => {
    pending.length = 0;
    // Synchronous: it lands between the host's read and its write, every time.
    tapWikilinks((file) => appendFileSync(at(file), '\nwritten from outside'));
    await write('Plan.md', '# Plan');
    await write('index.md', 'See [[Plan]].');
    const moved = await files.rename('main', { path: at('Plan.md'), name: 'Roadmap.md' });
    await Promise.all(pending);
    expect(pending).toHaveLength(1);
    expect(await read('index.md')).toBe('See [[Roadmap]].\nwritten from outside');
    expect(moved.linkUpdate.links).toBe(1);
    // The checkpoint holds the text the rewrite replaced: the outside writer's included.
    const [entry] = await store.list();
    const checkpoint = await store.get(entry!.id);
    expect(checkpoint.contentBefore).toBe('See [[Plan]].\nwritten from outside');
  });

  it('leaves a note whose tab has unsaved changes, and says so', async () => {
    tapWikilinks();
    await write('Plan.md', '# Plan');
    await write('index.md', 'See [[Plan]].');
    const { tabId } = await workbench.openFile(at('index.md'));
    const documentId = workbench.resolveTab(tabId).documentId;
    await documents.replace(documentId, 'See [[Plan]]. Typing…', { origin: { kind: 'editor' } });
    const moved = await files.rename('main', { path: at('Plan.md'), name: 'Roadmap.md' });
    expect(moved.linkUpdate.notes).toBe(0);
    expect(moved.linkUpdate.left).toEqual([expect.stringContaining('index.md: its tab has unsaved changes')]);
    expect(documents.get(documentId).content).toBe('See [[Plan]]. Typing…');
    expect(await read('index.md')).toBe('See [[Plan]].');
  });
});

describe('delete, restore, duplicate', () => {
  it('moves to the freedesktop trash with its .trashinfo, and back', async () => {
    await write('notes/Plan 1.md', 'plan');
    const deleted = await files.delete('main', { path: at('notes/Plan 1.md') });
    expect(deleted.where).toBe('system');
    expect(await fs.readFile(path.join(trash, 'files', 'Plan 1.md'), 'utf8')).toBe('plan');
    const info = await fs.readFile(path.join(trash, 'info', 'Plan 1.md.trashinfo'), 'utf8');
    expect(info).toMatch(
      /^\[Trash Info\]\nPath=.*\/notes\/Plan%201\.md\nDeletionDate=\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\n$/,
    );
    // A second file of the same name takes another name in the trash: nothing there is replaced.
    await write('notes/Plan 1.md', 'plan again');
    await files.delete('main', { path: at('notes/Plan 1.md') });
    expect(await fs.readFile(path.join(trash, 'files', 'Plan 1 2.md'), 'utf8')).toBe('plan again');
    expect(await files.restore('main', { trashId: deleted.trashId })).toEqual({
      path: at('notes/Plan 1.md'),
    });
    expect(await read('notes/Plan 1.md')).toBe('plan');
    expect(await exists(path.join(trash, 'info', 'Plan 1.md.trashinfo'))).toBe(false);
  });

  it("uses the workspace's .trash where there is no system trash; a restore never replaces", async () => {
    files = operations(null);
    await write('a.md', 'A');
    const deleted = await files.delete('main', { path: at('a.md') });
    expect(deleted.where).toBe('workspace');
    expect(await read('.trash/a.md')).toBe('A');
    await write('a.md', 'new A');
    await expect(files.restore('main', { trashId: deleted.trashId })).rejects.toThrow(/already exists/);
    expect([await read('a.md'), await read('.trash/a.md')]).toEqual(['new A', 'A']);
  });

  it('closes the tabs of deleted files, but keeps one with unsaved changes and its text', async () => {
    await write('f/clean.md', 'clean');
    await write('f/dirty.md', 'dirty');
    await workbench.openFile(at('f/clean.md'));
    const { tabId } = await workbench.openFile(at('f/dirty.md'));
    const documentId = workbench.resolveTab(tabId).documentId;
    await documents.replace(documentId, 'my unsaved words', { origin: { kind: 'editor' } });
    const deleted = await files.delete('main', { path: at('f') });
    expect(deleted.keptTabs).toBe(1);
    const tabs = workbench.state()[0]!.tabs;
    expect(tabs.map((t) => t.filePath)).toEqual([at('f/dirty.md')]);
    expect(documents.get(documentId).content).toBe('my unsaved words');
  });

  it('duplicates a file and a folder beside them, numbering copies', async () => {
    await write('Plan.md', 'plan');
    await write('f/x.md', 'x');
    expect(path.basename((await files.duplicate('main', { path: at('Plan.md') })).path)).toBe('Plan copy.md');
    expect(path.basename((await files.duplicate('main', { path: at('Plan.md') })).path)).toBe(
      'Plan copy 2.md',
    );
    expect(await read('Plan copy 2.md')).toBe('plan');
    const folder = await files.duplicate('main', { path: at('f') });
    expect(folder.path).toBe(at('f copy'));
    expect(await read('f copy/x.md')).toBe('x');
  });
});
