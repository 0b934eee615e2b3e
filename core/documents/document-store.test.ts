import { createHash } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { ChangeOrigin, HostHooks } from '@vmark/sdk';
import { ChangeSet } from '@codemirror/state';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHostHooks } from '../hooks/host-hooks.js';
import { withFileLock } from '../vault/file-lock.js';
import { HostVault } from '../vault/host-vault.js';
import { saveLockPathFor } from '../vault/temp-files.js';
import { LogHub } from '../log/log-hub.js';
import { HostDocumentStore } from './document-store.js';
import { FolderWatcher } from './folder-watcher.js';
import { KindRegistry } from './kind-registry.js';
import { WriteAcks } from './write-acks.js';

/*
 * The document store over real files, with another program's writes made at chosen moments:
 * nothing a writer was told is saved may be lost, and no outside change may be overwritten
 * unless the writer was shown it.
 */

const AI: ChangeOrigin = {
  kind: 'mcp',
  caller: { connectionId: 'c1', clientName: 'test', clientVersion: '1', principal: null },
  tool: 'document',
  action: 'write',
};
const EDITOR: ChangeOrigin = { kind: 'editor' };

let dir: string;
let file: string;
let hooks: HostHooks;
let watcher: FolderWatcher;
let store: HostDocumentStore;
let id: string;

beforeEach(async () => {
  dir = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'vmark-store-')));
  file = path.join(dir, 'note.md');
  await fs.writeFile(file, 'base\n');
  const kinds = new KindRegistry();
  kinds.register({ id: 'text', priority: 0, detect: () => true });
  hooks = createHostHooks();
  const vault = new HostVault({ home: path.join(os.tmpdir(), 'vmark-store-home-unused') });
  await vault.addWorkspaceRoot(dir);
  watcher = new FolderWatcher();
  store = new HostDocumentStore(kinds, hooks, vault, watcher, new LogHub(() => undefined), new WriteAcks());
  id = (await store.open(file)).id;
});

afterEach(async () => {
  store.dispose();
  watcher.dispose();
  await fs.rm(dir, { recursive: true, force: true });
});

const disk = () => fs.readFile(file, 'utf8');

async function eventually(check: () => boolean | Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('a write to a buffer without unsaved changes', () => {
  it('goes to disk and into the buffer', async () => {
    const { revision } = store.read(id, AI);
    const outcome = await store.write(id, 'mine\n', { expectedRevision: revision, origin: AI, save: true });
    expect(outcome).toMatchObject({ saved: true });
    expect(await disk()).toBe('mine\n');
    expect(store.get(id)).toMatchObject({ content: 'mine\n', dirty: false, revision: outcome.revision });
  });

  it('over a file changed on disk keeps nothing: STALE, and the tab takes the disk’s text', async () => {
    const { revision } = store.read(id, AI);
    await fs.appendFile(file, 'appended outside\n');
    const write = store.write(id, 'mine\n', { expectedRevision: revision, origin: AI, save: true });
    await expect(write).rejects.toMatchObject({ code: 'STALE', details: { conflict: 'changed-on-disk' } });
    expect(await disk()).toBe('base\nappended outside\n');
    const now = store.get(id);
    expect(now).toMatchObject({ content: 'base\nappended outside\n', dirty: false });
    const error = (await write.catch((e: unknown) => e)) as { details: { current_revision: string } };
    expect(error.details.current_revision).toBe(now.revision);
  });

  it('never lets a reload replace a write that arrived while the file was being read', async () => {
    // A reload and a write race a hundred times, an outside change each time.
    for (let i = 0; i < 100; i++) {
      const { revision } = store.read(id, AI);
      await fs.writeFile(file, `outside ${i}\n`);
      const reload = store.syncFromDisk(id);
      const write = store
        .write(id, `mine ${i}\n`, { expectedRevision: revision, origin: AI, save: true })
        .then(
          (outcome) => outcome,
          (error: unknown) => error,
        );
      await reload;
      const outcome = await write;
      const text = await disk();
      if ((outcome as { saved?: boolean }).saved === true) {
        expect(text).toBe(`mine ${i}\n`);
      } else {
        expect(outcome).toMatchObject({ code: 'STALE' });
        expect(text).toBe(`outside ${i}\n`);
      }
      expect(store.get(id).content).toBe(text);
    }
  });
});

/*
 * ADR 55: the buffer takes a clean document's write before the save, unsaved, so that editors
 * show it while the file is written; the save then marks it saved or says why not. Each
 * interleaving below acts from the `documentWritten` tap, after the buffer was told and before
 * the file was replaced.
 */
describe('a write told to the buffer before its save', () => {
  /** Runs `inside` once, when the AI's write has reached the buffer; records what the tap saw. */
  function whenTold(inside: () => void = () => undefined) {
    const seen: { origin: string; content: string; dirty: boolean; onDisk: string }[] = [];
    hooks.documentWritten.tap('test', ({ after, origin }) => {
      seen.push({
        origin: origin.kind,
        content: after.content,
        dirty: after.dirty,
        onDisk: diskNow(),
      });
      if (origin.kind === 'mcp') inside();
    });
    return seen;
  }
  const diskNow = () => {
    try {
      return readFileSync(file, 'utf8');
    } catch {
      return '<none>';
    }
  };

  it('is in the buffer, unsaved, before the disk holds it; saved after', async () => {
    const seen = whenTold();
    const saved: boolean[] = [];
    hooks.documentSaved.tap('test', ({ document }) => saved.push(document.dirty));
    const { revision } = store.read(id, AI);
    const outcome = await store.write(id, 'mine\n', { expectedRevision: revision, origin: AI, save: true });
    expect(seen).toEqual([{ origin: 'mcp', content: 'mine\n', dirty: true, onDisk: 'base\n' }]);
    expect(saved).toEqual([false]);
    expect(outcome).toMatchObject({ saved: true });
    expect(store.get(id)).toMatchObject({ content: 'mine\n', dirty: false, revision: outcome.revision });
    expect(await disk()).toBe('mine\n');
  });

  it('answers a saved write only once what a documentSaved tap held is done', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let holding = false;
    hooks.documentSaved.tap('test', ({ hold }) => {
      holding = true;
      hold(held);
    });
    let answered = false;
    const { revision } = store.read(id, AI);
    const write = store
      .write(id, 'mine\n', { expectedRevision: revision, origin: AI, save: true })
      .then((outcome) => ((answered = true), outcome));
    await eventually(() => holding);
    // The file is written, the answer is not: the tap's work is still under way.
    expect(await disk()).toBe('mine\n');
    await new Promise((resolve) => setImmediate(resolve));
    expect(answered).toBe(false);
    release();
    expect(await write).toMatchObject({ saved: true });
  });

  it('stays in the buffer, unsaved, when the save then fails', async () => {
    whenTold(() => rmSync(file));
    const { revision } = store.read(id, AI);
    const outcome = await store.write(id, 'mine\n', { expectedRevision: revision, origin: AI, save: true });
    expect(outcome).toMatchObject({ saved: false, save_error: expect.stringContaining('deleted') });
    expect(store.get(id)).toMatchObject({
      content: 'mine\n',
      dirty: true,
      revision: outcome.revision,
      conflict: { reason: 'deleted-on-disk' },
    });
    await expect(fs.stat(file)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('is taken back out when another program wrote the file inside the save: STALE, the disk’s text kept', async () => {
    const seen = whenTold(() => writeFileSync(file, 'outside\n'));
    const { revision } = store.read(id, AI);
    const write = store.write(id, 'mine\n', { expectedRevision: revision, origin: AI, save: true });
    await expect(write).rejects.toMatchObject({ code: 'STALE', details: { conflict: 'changed-on-disk' } });
    expect(await disk()).toBe('outside\n');
    expect(store.get(id)).toMatchObject({ content: 'outside\n', dirty: false });
    // The editors were told of the write, then of the disk's text, in that order.
    expect(seen.map((s) => [s.origin, s.content])).toEqual([
      ['mcp', 'mine\n'],
      ['disk', 'outside\n'],
    ]);
  });

  it('is not told at all when the file had already changed', async () => {
    const seen = whenTold();
    const { revision } = store.read(id, AI);
    await fs.appendFile(file, 'appended outside\n');
    await expect(
      store.write(id, 'mine\n', { expectedRevision: revision, origin: AI, save: true }),
    ).rejects.toMatchObject({ code: 'STALE' });
    expect(seen.map((s) => s.origin)).toEqual(['disk']);
  });
});

describe('an append another program makes to the version a save replaced', () => {
  it('is put onto the saved file, and the tab reloads with it', async () => {
    const { revision } = store.read(id, AI);
    // Another program opens the file just before vmark saves, and writes just after.
    const handle = await fs.open(file, 'a');
    const outcome = await store.write(id, 'base\nmine\n', {
      expectedRevision: revision,
      origin: AI,
      save: true,
    });
    expect(outcome.saved).toBe(true);
    await handle.write('theirs\n');
    await handle.close();
    await eventually(async () => (await disk()) === 'base\nmine\ntheirs\n');
    await eventually(() => store.get(id).content === 'base\nmine\ntheirs\n');
    expect(store.get(id)).toMatchObject({ dirty: false });
  });

  it('is shown as a conflict holding its bytes, and logged, when it cannot be put back', async () => {
    const logged: string[] = [];
    const home = await fs.mkdtemp(path.join(os.tmpdir(), 'vmark-store-home-'));
    const kinds = new KindRegistry();
    kinds.register({ id: 'text', priority: 0, detect: () => true });
    const vault = new HostVault({ home });
    await vault.addWorkspaceRoot(dir);
    const log = new LogHub(() => undefined);
    log.subscribe((record) => logged.push(`${record.level} ${record.message}`));
    const hurried = new HostDocumentStore(kinds, createHostHooks(), vault, watcher, log, new WriteAcks(), {
      home,
      saveLockTimeoutMs: 200,
    });
    try {
      const opened = await hurried.open(file);
      const handle = await fs.open(file, 'a');
      const outcome = await hurried.write(opened.id, 'base\nmine\n', {
        expectedRevision: opened.revision,
        origin: AI,
        save: true,
      });
      expect(outcome.saved).toBe(true);
      // Another holder keeps the save lock past the replay's patience: the append cannot go back.
      let release!: () => void;
      let taken!: () => void;
      const held = new Promise<void>((resolve) => (taken = resolve));
      const holding = withFileLock(saveLockPathFor(file), async () => {
        taken();
        await new Promise<void>((resolve) => (release = resolve));
      });
      await held;
      await handle.write('theirs\n');
      await handle.close();
      await eventually(() => hurried.get(opened.id).conflict !== undefined);
      release();
      await holding;
      expect(await disk()).toBe('base\nmine\n');
      expect(hurried.read(opened.id, AI).conflict).toMatchObject({
        reason: 'changed-on-disk',
        diskContent: 'base\nmine\ntheirs\n',
      });
      expect(logged).toContainEqual(
        expect.stringMatching(/^error could not keep 7 bytes another program appended/),
      );
    } finally {
      hurried.dispose();
      await fs.rm(home, { recursive: true, force: true });
    }
  });
});

describe('a conflict', () => {
  /** A person's unsaved edit, then another program's change on disk. */
  async function conflicted(typed = 'typed by a person\n'): Promise<void> {
    await store.replace(id, typed, { origin: EDITOR });
    await fs.writeFile(file, 'changed outside\n');
    await store.syncFromDisk(id);
    expect(store.get(id).conflict).toMatchObject({ reason: 'changed-on-disk' });
  }

  it('refuses a save until someone has been shown the text on disk', async () => {
    await conflicted();
    await expect(store.save(id)).rejects.toMatchObject({ code: 'STALE' });
    expect(await disk()).toBe('changed outside\n');
  });

  it('is shown to an AI client with the disk’s text, and a write based on that read may replace it', async () => {
    await conflicted();
    const seen = store.read(id, AI);
    expect(seen.conflict).toMatchObject({ diskContent: 'changed outside\n' });
    const outcome = await store.write(id, 'merged\n', {
      expectedRevision: seen.revision,
      origin: AI,
      save: true,
    });
    expect(outcome).toMatchObject({ saved: true });
    expect(await disk()).toBe('merged\n');
    expect(store.get(id)).toMatchObject({ dirty: false });
    expect(store.get(id).conflict).toBeUndefined();
  });

  it('is not resolved by a write that did not come from a read showing it', async () => {
    await conflicted();
    // No expected_revision: the writer never said what it based the text on.
    const blind = await store.write(id, 'blind\n', { origin: AI, save: true });
    expect(blind).toMatchObject({ saved: false, save_error: expect.stringMatching(/changed on disk/) });
    expect(await disk()).toBe('changed outside\n');
    // A later read shows it; a write from before that read still does not count.
    const stale = store.get(id).revision;
    const seen = store.read(id, AI);
    expect(seen.revision).toBe(stale);
    await store.replace(id, 'typed again\n', { origin: EDITOR });
    const afterTyping = await store.write(id, 'x\n', { origin: AI, save: true });
    expect(afterTyping.saved).toBe(false);
    expect(await disk()).toBe('changed outside\n');
  });

  it('is not shown by a read of part of the text, which leaves the disk’s text out', async () => {
    await conflicted();
    let heard = 0;
    hooks.documentRead.tap('test', () => (heard += 1));
    const seen = store.read(id, AI, { whole: false });
    expect(heard).toBe(1);
    const outcome = await store.write(id, 'from a window\n', {
      expectedRevision: seen.revision,
      origin: AI,
      save: true,
    });
    expect(outcome).toMatchObject({ saved: false, save_error: expect.stringMatching(/changed on disk/) });
    expect(await disk()).toBe('changed outside\n');
  });

  it('is not shown by the editor’s own reads, which cannot hand the disk’s text to a client', async () => {
    await conflicted();
    store.read(id, EDITOR);
    await expect(store.save(id)).rejects.toMatchObject({ code: 'STALE' });
  });

  it('found anew when the file changes again after it was shown', async () => {
    await conflicted();
    const seen = store.read(id, AI);
    await fs.writeFile(file, 'changed again\n');
    const outcome = await store.write(id, 'merged\n', {
      expectedRevision: seen.revision,
      origin: AI,
      save: true,
    });
    expect(outcome.saved).toBe(false);
    expect(await disk()).toBe('changed again\n');
    expect(store.get(id).conflict).toMatchObject({ diskContent: 'changed again\n' });
  });

  it('is answered by a person: keep mine over the bytes they were shown, or take the disk', async () => {
    await conflicted();
    const shown = store.get(id).conflict!.diskSha256;
    await fs.writeFile(file, 'changed twice\n');
    await expect(store.resolveConflict(id, 'keep-mine', shown)).rejects.toMatchObject({ code: 'STALE' });
    expect(await disk()).toBe('changed twice\n');
    await store.syncFromDisk(id);
    const again = store.get(id).conflict!.diskSha256;
    await store.resolveConflict(id, 'keep-mine', again);
    expect(await disk()).toBe('typed by a person\n');
    expect(store.get(id)).toMatchObject({ dirty: false });

    await conflicted('typed once more\n');
    await store.resolveConflict(id, 'take-disk', store.get(id).conflict!.diskSha256);
    expect(store.get(id)).toMatchObject({ content: 'changed outside\n', dirty: false });
  });
});

describe('host-managed metadata', () => {
  const stamp = (text: string) => (text.startsWith('meta\n') ? null : `meta\n${text}`);

  it('annotate edits the file and the open buffer, keeping its revision and leaving it clean', async () => {
    const { revision } = store.read(id, AI);
    expect(await store.annotate(file, stamp)).toBe('meta\nbase\n');
    expect(await disk()).toBe('meta\nbase\n');
    expect(store.get(id)).toMatchObject({ content: 'meta\nbase\n', revision, dirty: false });
    // The client that read before it writes with the revision it read.
    const outcome = await store.write(id, 'meta\nmine\n', {
      expectedRevision: revision,
      origin: AI,
      save: true,
    });
    expect(outcome.saved).toBe(true);
  });

  it('annotate edits a file no tab shows', async () => {
    const other = path.join(dir, 'closed.md');
    await fs.writeFile(other, 'closed\n');
    expect(await store.annotate(other, stamp)).toBe('meta\nclosed\n');
    expect(await fs.readFile(other, 'utf8')).toBe('meta\nclosed\n');
  });

  it('annotate keeps a person’s unsaved changes unsaved, with the edit on both sides', async () => {
    await store.replace(id, 'base\ntyped\n', { origin: EDITOR });
    await store.annotate(file, stamp);
    expect(await disk()).toBe('meta\nbase\n');
    expect(store.get(id)).toMatchObject({ content: 'meta\nbase\ntyped\n', dirty: true });
    await store.save(id);
    expect(await disk()).toBe('meta\nbase\ntyped\n');
  });

  it('annotate refuses a file outside the scope', async () => {
    const outside = await fs.mkdtemp(path.join(os.tmpdir(), 'vmark-store-outside-'));
    await fs.writeFile(path.join(outside, 'x.md'), 'x');
    await expect(store.annotate(path.join(outside, 'x.md'), stamp)).rejects.toMatchObject({
      code: 'INVALID_PATH',
    });
    expect(await fs.readFile(path.join(outside, 'x.md'), 'utf8')).toBe('x');
    await fs.rm(outside, { recursive: true, force: true });
  });

  it('what a beforeDocumentSave tap adds is saved and enters the buffer without a new revision', async () => {
    hooks.beforeDocumentSave.tapPromise('test', (proposal) =>
      Promise.resolve({
        ...proposal,
        content: stamp(proposal.content) ?? proposal.content,
      }),
    );
    const { revision } = store.read(id, AI);
    const written = await store.write(id, 'mine\n', { expectedRevision: revision, origin: AI, save: true });
    expect(await disk()).toBe('meta\nmine\n');
    expect(store.get(id)).toMatchObject({
      content: 'meta\nmine\n',
      revision: written.revision,
      dirty: false,
    });

    // A person's save of a buffer without it: saved with it, and the buffer takes it, still clean.
    await store.replace(id, 'typed over everything\n', { origin: EDITOR });
    const typed = store.get(id).revision;
    await store.save(id);
    expect(await disk()).toBe('meta\ntyped over everything\n');
    expect(store.get(id)).toMatchObject({
      content: 'meta\ntyped over everything\n',
      revision: typed,
      dirty: false,
    });
  });
});

describe('hooks', () => {
  it('tell listeners when a conflict appears, though the text did not change', async () => {
    const heard: boolean[] = [];
    hooks.documentStateChanged.tap('test', ({ document }) => heard.push(document.dirty));
    await store.replace(id, 'typed\n', { origin: EDITOR });
    await fs.writeFile(file, 'outside\n');
    await store.syncFromDisk(id);
    expect(heard).toEqual([true]);
  });
});

describe('files that are not text files', () => {
  it('a named pipe cannot be opened, and opening it does not block', async () => {
    const fifo = path.join(dir, 'pipe.md');
    const { execFileSync } = await import('node:child_process');
    execFileSync('mkfifo', [fifo]);
    await expect(store.open(fifo)).rejects.toMatchObject({
      code: 'INVALID_PATH',
      message: expect.stringContaining('named pipe'),
    });
  });
});

describe('saveAs onto another path', () => {
  const target = () => path.join(dir, 'target.md');

  it('never overwrites an existing file unless the caller confirms what it replaces', async () => {
    await fs.writeFile(target(), 'theirs\n');
    await expect(store.saveAs(id, target())).rejects.toMatchObject({
      code: 'INVALID_PATH',
      message: expect.stringMatching(/already exists/),
    });
    expect(await fs.readFile(target(), 'utf8')).toBe('theirs\n');
  });

  it('tells the caller what is there, and replaces exactly that, handing the replaced text to fileReplaced', async () => {
    await fs.writeFile(target(), 'theirs\n');
    const told: unknown[] = [];
    const replaced: unknown[] = [];
    hooks.fileReplaced.tap('test', (event) => replaced.push(event));
    const saved = await store.saveAs(id, target(), {
      confirm: (what) => {
        told.push(what);
        return Promise.resolve();
      },
      origin: AI,
    });
    expect(told).toEqual([
      {
        path: target(),
        replaces: { bytes: 7, sha256: createHash('sha256').update('theirs\n').digest('hex') },
      },
    ]);
    expect(saved).toMatchObject({ filePath: target(), content: 'base\n', dirty: false });
    expect(await fs.readFile(target(), 'utf8')).toBe('base\n');
    expect(replaced).toEqual([
      {
        document: expect.objectContaining({ filePath: target() }),
        filePath: target(),
        replacedContent: 'theirs\n',
        origin: AI,
      },
    ]);
  });

  it('tells the caller of a new file as such, and creates it', async () => {
    const told: unknown[] = [];
    await store.saveAs(id, target(), { confirm: (what) => (told.push(what), Promise.resolve()) });
    expect(told).toEqual([{ path: target(), replaces: null }]);
    expect(await fs.readFile(target(), 'utf8')).toBe('base\n');
  });

  it('writes nothing when the caller refuses', async () => {
    await fs.writeFile(target(), 'theirs\n');
    const refusal = new Error('no');
    await expect(store.saveAs(id, target(), { confirm: () => Promise.reject(refusal) })).rejects.toBe(
      refusal,
    );
    expect(await fs.readFile(target(), 'utf8')).toBe('theirs\n');
    expect(store.get(id).filePath).toBe(file);
  });

  it('replaces nothing when the file changed after the caller was told of it', async () => {
    await fs.writeFile(target(), 'theirs\n');
    const replaced: unknown[] = [];
    hooks.fileReplaced.tap('test', (event) => replaced.push(event));
    const save = store.saveAs(id, target(), {
      // Another program writes while the person is deciding.
      confirm: () => fs.writeFile(target(), 'theirs, edited since\n'),
    });
    await expect(save).rejects.toMatchObject({ code: 'STALE', details: { conflict: 'changed-on-disk' } });
    expect(await fs.readFile(target(), 'utf8')).toBe('theirs, edited since\n');
    expect(store.get(id).filePath).toBe(file);
    expect(replaced).toEqual([]);
  });

  it('creates nothing over a file that appeared after the caller was told there was none', async () => {
    const save = store.saveAs(id, target(), { confirm: () => fs.writeFile(target(), 'appeared\n') });
    await expect(save).rejects.toMatchObject({
      code: 'INVALID_PATH',
      message: expect.stringMatching(/already exists/),
    });
    expect(await fs.readFile(target(), 'utf8')).toBe('appeared\n');
  });

  it('refuses, before asking, a file that is not text or is open in another tab', async () => {
    let asked = 0;
    const confirm = () => ((asked += 1), Promise.resolve());
    await fs.writeFile(target(), Buffer.from([0xff, 0xfe, 0x00, 0x01]));
    await expect(store.saveAs(id, target(), { confirm })).rejects.toMatchObject({
      code: 'INVALID_PATH',
      message: expect.stringMatching(/is not UTF-8 text; save_as replaces only a text file/),
    });
    await fs.mkdir(path.join(dir, 'folder.md'));
    await expect(store.saveAs(id, path.join(dir, 'folder.md'), { confirm })).rejects.toMatchObject({
      code: 'INVALID_PATH',
    });
    const other = path.join(dir, 'other.md');
    await fs.writeFile(other, 'other\n');
    await store.open(other);
    await expect(store.saveAs(id, other, { confirm })).rejects.toMatchObject({
      code: 'INVALID_PATH',
      message: expect.stringMatching(/is open in another tab/),
    });
    expect(asked).toBe(0);
    expect(await fs.readFile(other, 'utf8')).toBe('other\n');
  });

  it('saves to its own file without asking', async () => {
    await store.replace(id, 'edited\n', { origin: EDITOR });
    await store.saveAs(id, file, { confirm: () => Promise.reject(new Error('must not ask')) });
    expect(await disk()).toBe('edited\n');
  });
});

describe('an editor’s changes applied to the store’s text (ADR 81)', () => {
  it('become the buffer’s text under a new revision, seen whole by a tap and by a save', async () => {
    const written: { before: string; after: string; head: string | undefined }[] = [];
    hooks.documentWritten.tap('test', ({ before, after }) =>
      written.push({ before: before.content, after: after.content, head: after.head?.(3) }),
    );
    const { revision } = store.get(id);
    const text = store.textOf(id).apply(ChangeSet.of({ from: 4, insert: '\nline 2' }, 5));
    const after = await store.replace(id, text, { expectedRevision: revision, origin: EDITOR });
    expect(after).toMatchObject({ content: 'base\nline 2\n', dirty: true });
    expect(after.revision).not.toBe(revision);
    expect(written).toEqual([{ before: 'base\n', after: 'base\nline 2\n', head: 'bas' }]);
    await store.save(id);
    expect(await disk()).toBe('base\nline 2\n');
  });

  it('that put back what they replace change nothing: no revision, no event', async () => {
    let events = 0;
    hooks.documentWritten.tap('test', () => void events++);
    const { revision } = store.get(id);
    const same = store.textOf(id).apply(ChangeSet.of({ from: 0, to: 4, insert: 'base' }, 5));
    const after = await store.replace(id, same, { expectedRevision: revision, origin: EDITOR });
    expect([after.revision, after.dirty, events]).toEqual([revision, false, 0]);
  });
});

describe('a range write (replaceRange)', () => {
  it('replaces the range in the text as it is, and says with which change', async () => {
    const changes: unknown[] = [];
    hooks.documentWritten.tap('test', ({ after }) =>
      changes.push(store.changesOf(after)?.toJSON() as unknown),
    );
    const { revision } = store.get(id);
    const after = await store.replaceRange(
      id,
      { from: 1, to: 3, insert: 'lu\r\ne' },
      { expectedRevision: revision, origin: AI },
    );
    // Lines split at \n only: the \r stays a character of its line, as in the editors.
    expect(after).toMatchObject({ content: 'blu\r\nee\n', dirty: true });
    expect(after.revision).not.toBe(revision);
    expect(changes).toEqual([[1, [2, 'lu\r', 'e'], 2]]);
    expect([after.slice?.(1, 5), after.slice?.(-3, 2), after.slice?.(6, 99), after.slice?.(5, 2)]).toEqual([
      'lu\r\n',
      'bl',
      'e\n',
      '',
    ]);
    await store.save(id);
    expect(await disk()).toBe('blu\r\nee\n');
  });

  it('refuses a range that is not inside the text, and changes nothing', async () => {
    let events = 0;
    hooks.documentWritten.tap('test', () => void events++);
    const { revision } = store.get(id);
    for (const [from, to] of [
      [-1, 2],
      [2, 6],
      [3, 2],
      [0.5, 2],
      [Number.NaN, 1],
    ] as const) {
      await expect(store.replaceRange(id, { from, to, insert: 'x' }, { origin: AI })).rejects.toThrow(
        /is not inside the text \(0–5\)/,
      );
    }
    expect([store.get(id).content, store.get(id).revision, events]).toEqual(['base\n', revision, 0]);
  });

  it('refuses a stale revision, and changes nothing', async () => {
    const { revision } = store.get(id);
    await store.replace(id, 'other\n', { origin: AI });
    await expect(
      store.replaceRange(id, { from: 0, to: 1, insert: 'B' }, { expectedRevision: revision, origin: AI }),
    ).rejects.toMatchObject({ code: 'STALE' });
    expect(store.get(id).content).toBe('other\n');
  });

  it('that puts back what it replaces changes nothing; a tap’s rewrite is no longer that change', async () => {
    let events = 0;
    hooks.documentWritten.tap('test', () => void events++);
    const { revision } = store.get(id);
    const same = await store.replaceRange(id, { from: 0, to: 4, insert: 'base' }, { origin: AI });
    expect([same.revision, same.dirty, events]).toEqual([revision, false, 0]);
    hooks.beforeDocumentWrite.tapPromise('upper', (p) =>
      Promise.resolve({ ...p, content: p.content.toUpperCase() }),
    );
    const known: unknown[] = [];
    hooks.documentWritten.tap('test', ({ after }) => known.push(store.changesOf(after)));
    const after = await store.replaceRange(id, { from: 4, to: 4, insert: '!' }, { origin: AI });
    expect([after.content, known]).toEqual(['BASE!\n', [undefined]]);
  });
});

describe('the UTF-8 of an opened document, for an editor’s first frame', () => {
  it('is the bytes read from the file the first time, then the text encoded again', async () => {
    const bytes = Buffer.from('# 漢字かな 😀\n\nend\n', 'utf8');
    const other = path.join(dir, 'multi.md');
    await fs.writeFile(other, bytes);
    const opened = await store.open(other);
    expect(Buffer.from(store.textOf(opened.id).takeUtf8())).toEqual(bytes);
    expect(Buffer.from(store.textOf(opened.id).takeUtf8())).toEqual(bytes);
    expect(opened.content).toBe(bytes.toString('utf8'));
  });

  it('leaves out a byte order mark, as the text does', async () => {
    const other = path.join(dir, 'bom.md');
    await fs.writeFile(other, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('bom ✓\n')]));
    const opened = await store.open(other);
    expect(opened.content).toBe('bom ✓\n');
    expect(Buffer.from(store.textOf(opened.id).takeUtf8()).toString('utf8')).toBe('bom ✓\n');
  });

  it('follows a change made before the first frame: the bytes read are not sent', async () => {
    const { revision } = store.read(id, AI);
    await store.write(id, 'changed ✓\n', { expectedRevision: revision, origin: AI, save: false });
    expect(Buffer.from(store.textOf(id).takeUtf8()).toString('utf8')).toBe('changed ✓\n');
  });
});
