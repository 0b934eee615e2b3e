import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HostDocumentStore } from '../../documents/document-store.js';
import { FolderWatcher } from '../../documents/folder-watcher.js';
import { KindRegistry } from '../../documents/kind-registry.js';
import { WriteAcks } from '../../documents/write-acks.js';
import { CheckpointStore } from '../../history/checkpoint-store.js';
import { restoreCheckpoint } from '../../history/restore-checkpoint.js';
import { createHostHooks } from '../../hooks/host-hooks.js';
import { LogHub } from '../../log/log-hub.js';
import type { SearchOptions, SearchResult } from '../../protocol/search-protocol.js';
import { HostVault } from '../../vault/host-vault.js';
import { HostWorkbench } from '../../workbench/workbench.js';
import { VaultSearch } from './vault-search.js';
import { WorkspaceFileIndex } from '../../workspace-files/workspace-file-index.js';

/*
 * Vault search on real files: the real workspace file index and folder watches, the worker
 * thread, the real document store, checkpoint store and restore.
 */

let base: string;
let root: string;
let home: string;
let folders: FolderWatcher;
let vault: HostVault;
let index: WorkspaceFileIndex;
let documents: HostDocumentStore;
let workbench: HostWorkbench;
let store: CheckpointStore;
let search: VaultSearch;

const PLAIN: SearchOptions = { caseSensitive: false, wholeWord: false, regex: false };
/** Short, so that the hanging regex's test is quick; the host's own is 2 s. */
const BUDGET_MS = 400;

beforeEach(async () => {
  base = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'vmark-vault-search-')));
  root = path.join(base, 'vault');
  home = path.join(base, 'home');
  await fs.mkdir(root, { recursive: true });
  await fs.mkdir(home);
  folders = new FolderWatcher();
  vault = new HostVault({ home });
  await vault.addWorkspaceRoot(root);
  const kinds = new KindRegistry();
  kinds.register({ id: 'text', priority: 0, detect: () => true });
  const hooks = createHostHooks();
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
});
afterEach(async () => {
  search?.dispose();
  index?.dispose();
  documents.dispose();
  folders.dispose();
  await fs.rm(base, { recursive: true, force: true });
});

async function write(relative: string, text: string): Promise<void> {
  await fs.mkdir(path.dirname(path.join(root, relative)), { recursive: true });
  await fs.writeFile(path.join(root, relative), text);
}

async function started(): Promise<VaultSearch> {
  index = new WorkspaceFileIndex(root, folders, vault, [home]);
  await index.ready;
  search = new VaultSearch(
    { rootsOf: () => [root], indexOf: () => index },
    workbench,
    vault,
    documents,
    store,
    BUDGET_MS,
  );
  return search;
}

const find = (query: string, options: Partial<SearchOptions> = {}) =>
  search.search('main', query, { ...PLAIN, ...options });

const summary = (result: SearchResult) =>
  result.files.map((f) => [
    f.label,
    f.matches.map((m) => `${m.line}:${m.column}:${m.preview.slice(m.start, m.end)}`),
  ]);

describe('VaultSearch', () => {
  it('lists matches by file in path order, with their line, column and the line around them', async () => {
    await write('b.md', '# Beta\n\nA cat sat.\nConcatenate CAT\n');
    await write('a/notes.md', 'no match here\n');
    await write('a/first.md', 'cat\r\n');
    await started();
    const result = await find('cat');
    expect(summary(result)).toEqual([
      ['a/first.md', ['1:1:cat']],
      ['b.md', ['3:3:cat', '4:4:cat', '4:13:CAT']],
    ]);
    const line = result.files[1]!.matches[1]!;
    expect(line.preview).toBe('Concatenate CAT');
    // A CRLF line's preview ends before its \r.
    expect(result.files[0]!.matches[0]!.preview).toBe('cat');
    expect(result.searchedFiles).toBe(3);
    expect(result.files[1]!.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('honours each option: case, whole word, regex, and both together', async () => {
    await write('n.md', 'Cat cat concat cat_x cats\nhé héros\n');
    await started();
    const texts = async (q: string, o: Partial<SearchOptions>) =>
      (await find(q, o)).files.flatMap((f) => f.matches.map((m) => `${m.column}`));
    expect(await texts('cat', {})).toEqual(['1', '5', '12', '16', '22']);
    expect(await texts('cat', { caseSensitive: true })).toEqual(['5', '12', '16', '22']);
    expect(await texts('cat', { wholeWord: true })).toEqual(['1', '5']);
    expect(await texts('c.t', {})).toEqual([]);
    expect(await texts('c.t', { regex: true, caseSensitive: true })).toEqual(['5', '12', '16', '22']);
    expect(await texts('cats?', { regex: true, wholeWord: true })).toEqual(['1', '5', '22']);
    // A whole word knows letters beyond ASCII: "hé" is not inside "héros".
    expect((await find('hé', { wholeWord: true })).files[0]!.matches.map((m) => m.line)).toEqual([2]);
  });

  it('refuses a query that is not a valid pattern, in words, and an empty one', async () => {
    await started();
    await expect(find('(unclosed', { regex: true })).rejects.toThrow(
      'This is not a valid regular expression: Unterminated group',
    );
    await expect(find('')).rejects.toThrow(/Type something/);
    // The same text as typed text is fine.
    expect((await find('(unclosed')).files).toEqual([]);
  });

  it('stops a regex that would not end, names the file, and searches again afterwards', async () => {
    await write('a.md', 'fine\n');
    await write('b.md', `${'a'.repeat(40)}!\n`);
    await started();
    const stuck = await find('(a+)+$', { regex: true });
    expect(stuck.files).toEqual([]);
    expect(stuck.notes.join(' ')).toMatch(/ran for more than 0.4 s on b\.md and was stopped/);
    const after = await find('fine');
    expect(summary(after)).toEqual([['a.md', ['1:1:fine']]]);
  });

  it('skips a 2 GB file and binary files with a note, without reading them', async () => {
    await write('note.md', 'needle\n');
    await write('picture.png', `needle\u0000\u0001binary`);
    const big = path.join(root, 'export.log');
    // Sparse: 2 GB long, no disk used.
    await fs.writeFile(big, 'needle');
    await fs.truncate(big, 2 * 1024 ** 3);
    await started();
    const result = await find('needle');
    expect(summary(result)).toEqual([['note.md', ['1:1:needle']]]);
    expect(result.notes).toEqual([
      'Skipped, larger than 64 MB: export.log.',
      '1 files that are not text were not searched.',
    ]);
  });

  it('lists the first matches of a file and of the whole search, and counts the rest', async () => {
    await write('many.md', 'x\n'.repeat(150));
    for (let i = 0; i < 25; i++) await write(`f/${String(i).padStart(2, '0')}.md`, 'x\n'.repeat(80));
    await started();
    const result = await find('x');
    const listed = result.files.reduce((sum, f) => sum + f.matches.length, 0);
    const counted = listed + result.files.reduce((sum, f) => sum + f.more, 0) + result.moreMatches;
    expect(listed).toBe(2_000);
    expect(counted).toBe(150 + 25 * 80);
    expect(result.files.find((f) => f.label === 'many.md')?.more).toBe(50);
    expect(result.moreFiles).toBeGreaterThan(0);
  });

  it('keeps current as files change: an edit, a new file and a deleted one', async () => {
    await write('a.md', 'old words\n');
    await write('b.md', 'old too\n');
    await started();
    expect((await find('old')).files.length).toBe(2);
    await write('a.md', 'new words\n');
    await write('c.md', 'old and new\n');
    await fs.rm(path.join(root, 'b.md'));
    // The watcher's events arrive on their own time: ask until they are in (the test's timeout bounds it).
    const labels = async () => (await find('old')).files.map((f) => f.label);
    while (JSON.stringify(await labels()) !== JSON.stringify(['c.md'])) {
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(summary(await find('new'))).toEqual([
      ['a.md', ['1:1:new']],
      ['c.md', ['1:9:new']],
    ]);
  });

  it('replaces all but the unchecked matches, one checkpoint a file, which restore undoes', async () => {
    await write('a.md', 'color and color and color\n');
    await write('b.md', 'color: colour\n');
    await started();
    const found = await find('colou?r', { regex: true });
    const files = found.files.map((f) => ({
      path: f.path,
      sha256: f.sha256,
      skip: f.label === 'a.md' ? [1] : [],
    }));
    const { files: outcomes } = await search.replace('main', {
      query: 'colou?r',
      options: { ...PLAIN, regex: true },
      replacement: '[$&]',
      files,
    });
    expect(outcomes.map((o) => [path.basename(o.path), o.replaced])).toEqual([
      ['a.md', 2],
      ['b.md', 2],
    ]);
    expect(await fs.readFile(path.join(root, 'a.md'), 'utf8')).toBe('[color] and color and [color]\n');
    expect(await fs.readFile(path.join(root, 'b.md'), 'utf8')).toBe('[color]: [colour]\n');
    const checkpoints = await store.list();
    expect(checkpoints.map((c) => c.tool)).toEqual(['search.replace', 'search.replace']);
    const ofA = outcomes[0]!.checkpoint!;
    await restoreCheckpoint({ store, workbench, documents, tabOutlivesCall: true }, ofA);
    expect(await fs.readFile(path.join(root, 'a.md'), 'utf8')).toBe('color and color and color\n');
  });

  it('leaves a file whose text changed since the search, or whose open tab has unsaved changes', async () => {
    await write('a.md', 'foo\n');
    await write('b.md', 'foo\n');
    await started();
    const found = await find('foo');
    await write('a.md', 'foo foo\n');
    const { tabId } = await workbench.openFile(path.join(root, 'b.md'));
    const { documentId } = workbench.resolveTab(tabId);
    await documents.replace(documentId, 'foo typed\n', { origin: { kind: 'host' } });
    const { files } = await search.replace('main', {
      query: 'foo',
      options: PLAIN,
      replacement: 'bar',
      files: found.files.map((f) => ({ path: f.path, sha256: f.sha256, skip: [] })),
    });
    expect(files.map((f) => [path.basename(f.path), f.replaced, f.note])).toEqual([
      ['a.md', 0, 'It changed since the search: search again.'],
      ['b.md', 0, 'Its tab has unsaved changes: save them, search again, then replace.'],
    ]);
    expect(await fs.readFile(path.join(root, 'a.md'), 'utf8')).toBe('foo foo\n');
    expect(await fs.readFile(path.join(root, 'b.md'), 'utf8')).toBe('foo\n');
    expect(await store.list()).toEqual([]);
  });

  it('refuses a path outside the workspace', async () => {
    await started();
    const outside = path.join(base, 'elsewhere.md');
    await fs.writeFile(outside, 'foo\n');
    const { files } = await search.replace('main', {
      query: 'foo',
      options: PLAIN,
      replacement: 'bar',
      files: [{ path: outside, sha256: '0'.repeat(64), skip: [] }],
    });
    expect(files[0]!.replaced).toBe(0);
    expect(files[0]!.note).toBeTruthy();
    expect(await fs.readFile(outside, 'utf8')).toBe('foo\n');
  });
});
