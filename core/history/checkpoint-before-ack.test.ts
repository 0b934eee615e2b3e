import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { ChangeOrigin, HostHooks } from '@vmark/sdk';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HostDocumentStore } from '../documents/document-store.js';
import { FolderWatcher } from '../documents/folder-watcher.js';
import { KindRegistry } from '../documents/kind-registry.js';
import { WriteAcks } from '../documents/write-acks.js';
import { createHostHooks } from '../hooks/host-hooks.js';
import { LogHub } from '../log/log-hub.js';
import { withFileLock } from '../vault/file-lock.js';
import { HostVault } from '../vault/host-vault.js';
import { HostWorkbench } from '../workbench/workbench.js';
import { CheckpointRecorder } from './checkpoint-recorder.js';
import { CheckpointStore } from './checkpoint-store.js';

/*
 * Issue 18: "checkpoint before the write is acknowledged". The checkpoint of the replaced text
 * is written alongside the file; a write answers only once both are on disk (ADR 60). The
 * checkpoint folder's lock, held by this test as another vmark process would hold it, keeps
 * the checkpoint from being written for as long as the test wants.
 */

const AI: ChangeOrigin = {
  kind: 'mcp',
  caller: { connectionId: 'c1', clientName: 'test', clientVersion: '1', principal: null },
  tool: 'document',
  action: 'write',
};

let home: string;
let dir: string;
let file: string;
let hooks: HostHooks;
let documents: HostDocumentStore;
let watcher: FolderWatcher;
let checkpoints: CheckpointStore;
let recorder: CheckpointRecorder;
let id: string;
/** Lets go of the lock a test holds, if it failed before letting go itself. */
let letGo: (() => void) | undefined;

beforeEach(async () => {
  home = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'vmark-ack-home-')));
  dir = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'vmark-ack-ws-')));
  file = path.join(dir, 'note.md');
  await fs.writeFile(file, 'before\n');
  const kinds = new KindRegistry();
  kinds.register({ id: 'text', priority: 0, detect: () => true });
  hooks = createHostHooks();
  const vault = new HostVault({ home });
  const acks = new WriteAcks();
  const log = new LogHub(() => undefined);
  watcher = new FolderWatcher();
  documents = new HostDocumentStore(kinds, hooks, vault, watcher, log, acks);
  const workbench = new HostWorkbench(documents, vault, hooks);
  checkpoints = new CheckpointStore({ home });
  recorder = new CheckpointRecorder(hooks, workbench, checkpoints, log, acks);
  recorder.start();
  const { tabId } = await workbench.openFile(file, { consented: true });
  id = workbench.resolveTab(tabId).documentId;
});

afterEach(async () => {
  letGo?.();
  recorder.dispose();
  await recorder.flush();
  documents.dispose();
  watcher.dispose();
  await fs.rm(home, { recursive: true, force: true });
  await fs.rm(dir, { recursive: true, force: true });
});

/** Holds the checkpoint folder's lock until the returned function is called. */
async function holdCheckpointLock(): Promise<() => Promise<void>> {
  await fs.mkdir(checkpoints.folder, { recursive: true });
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let taken!: () => void;
  const isTaken = new Promise<void>((resolve) => (taken = resolve));
  const done = withFileLock(path.join(checkpoints.folder, 'index.lock'), () => (taken(), held));
  await isTaken;
  letGo = release;
  return () => (release(), done);
}

async function eventually(check: () => boolean | Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Whether `promise` has settled by the time the event loop has gone round once more. */
async function settledYet(promise: Promise<unknown>): Promise<boolean> {
  let settled = false;
  promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  await new Promise((resolve) => setImmediate(resolve));
  return settled;
}

describe('a document.write is acknowledged only once its checkpoint is on disk', () => {
  it('waits, with the file already written, until the checkpoint can be written; then it is there', async () => {
    const release = await holdCheckpointLock();
    const write = documents.write(id, 'after\n', { origin: AI, save: true });
    // The file's own write does not wait for the checkpoint: both run at once.
    await eventually(async () => (await fs.readFile(file, 'utf8')) === 'after\n');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await settledYet(write)).toBe(false);
    expect(await checkpoints.list()).toEqual([]);

    await release();
    await expect(write).resolves.toMatchObject({ saved: true });
    // Nothing to wait for: the answer came after the checkpoint was recorded.
    const [entry] = await checkpoints.list();
    expect(entry).toMatchObject({ tool: 'document.write', filePath: file });
    expect((await checkpoints.get(entry!.id)).contentBefore).toBe('before\n');
  });

  it('does not hold the next write to the document in the queue behind the first one’s checkpoint', async () => {
    const release = await holdCheckpointLock();
    const first = documents.write(id, 'one\n', { origin: AI, save: true });
    const second = documents.write(id, 'two\n', { origin: AI, save: true });
    // The second write reaches the disk while the first one's checkpoint still waits.
    await eventually(async () => (await fs.readFile(file, 'utf8')) === 'two\n');
    expect(await settledYet(first)).toBe(false);
    expect(await settledYet(second)).toBe(false);

    await release();
    await expect(first).resolves.toMatchObject({ saved: true });
    await expect(second).resolves.toMatchObject({ saved: true });
    const texts = await Promise.all(
      (await checkpoints.list()).map(async (entry) => (await checkpoints.get(entry.id)).contentBefore),
    );
    expect(texts).toEqual(['one\n', 'before\n']);
  });

  it('another program appending while the answer waits for the checkpoint: both kept', async () => {
    const release = await holdCheckpointLock();
    const write = documents.write(id, 'after\n', { origin: AI, save: true });
    await eventually(async () => (await fs.readFile(file, 'utf8')) === 'after\n');
    await fs.appendFile(file, 'appended outside\n');
    await release();
    await expect(write).resolves.toMatchObject({ saved: true });
    // The append landed after the rename: the buffer takes it in, nothing is overwritten.
    await eventually(() => documents.get(id).content === 'after\nappended outside\n');
    expect(await fs.readFile(file, 'utf8')).toBe('after\nappended outside\n');
    expect(documents.get(id).dirty).toBe(false);
  });

  it('another program writing before the rename: STALE, and its checkpoint wait does not hang', async () => {
    const release = await holdCheckpointLock();
    // Changed on disk after the buffer was read: the write is refused, the tab takes the disk's text.
    await fs.writeFile(file, 'outside\n');
    const write = documents.write(id, 'after\n', { origin: AI, save: true });
    await expect(write).rejects.toMatchObject({ code: 'STALE' });
    expect(await fs.readFile(file, 'utf8')).toBe('outside\n');
    await release();
  });

  it('a write kept in the editor only (save: false) also waits for its checkpoint', async () => {
    const release = await holdCheckpointLock();
    const write = documents.write(id, 'draft\n', { origin: AI, save: false });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await settledYet(write)).toBe(false);
    await release();
    await expect(write).resolves.toMatchObject({ saved: false, save_skipped: 'opt_out' });
    expect(await checkpoints.list()).toHaveLength(1);
  });

  it('a checkpoint that cannot be written does not fail a write already on disk', async () => {
    // The checkpoint folder cannot be made: a file stands where it would be.
    await fs.writeFile(checkpoints.folder, 'not a folder');
    const outcome = await documents.write(id, 'after\n', { origin: AI, save: true });
    expect(outcome).toMatchObject({ saved: true });
    expect(await fs.readFile(file, 'utf8')).toBe('after\n');
  });

  it('an edit typed in the editor waits for nothing: it records no checkpoint', async () => {
    const release = await holdCheckpointLock();
    const replaced = documents.replace(id, 'typed\n', { origin: { kind: 'editor' } });
    await expect(replaced).resolves.toMatchObject({ content: 'typed\n', dirty: true });
    await release();
    expect(await checkpoints.list()).toEqual([]);
  });
});
