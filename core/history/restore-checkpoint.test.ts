import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HostDocumentStore } from '../documents/document-store.js';
import { FolderWatcher } from '../documents/folder-watcher.js';
import { WriteAcks } from '../documents/write-acks.js';
import { KindRegistry } from '../documents/kind-registry.js';
import { createHostHooks } from '../hooks/host-hooks.js';
import { LogHub } from '../log/log-hub.js';
import { HostVault } from '../vault/host-vault.js';
import { ownerTag } from '../vault/process-owner.js';
import { HostWorkbench } from '../workbench/workbench.js';
import type { CheckpointEntry } from './checkpoint-entry.js';
import { CheckpointStore, UnknownCheckpointError, type NewCheckpoint } from './checkpoint-store.js';
import {
  NotRestorableError,
  restoreCheckpoint,
  RestoreNotRecordedError,
  type RestoreContext,
} from './restore-checkpoint.js';

/*
 * The one restore behind `vmark checkpoints restore` and the History panel, on real
 * files, a real store and a real document store (the e2e test drives the CLI, the
 * host test the panel).
 */

let home: string;
let dir: string;
let file: string;
let store: CheckpointStore;
let documents: HostDocumentStore;
let workbench: HostWorkbench;
let context: RestoreContext;
let watcher: FolderWatcher;

const ON_DISK = '# Notes\nrewritten by AI\n';

/** What the recorder would have stored for an AI edit from `contentBefore` to what is on disk now. */
function aiEdit(contentBefore: string, more: Partial<NewCheckpoint> = {}): NewCheckpoint {
  return {
    tabId: 'tab-9',
    filePath: file,
    tool: 'document.write',
    description: 'Wrote document',
    revisionBefore: 'rev-AAAAAAAA',
    revisionAfter: 'rev-BBBBBBBB',
    contentBefore,
    ...more,
  };
}

beforeEach(async () => {
  home = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'vmark-restore-home-')));
  dir = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'vmark-restore-ws-')));
  file = path.join(dir, 'notes.md');
  await fs.writeFile(file, ON_DISK);
  const kinds = new KindRegistry();
  kinds.register({ id: 'text', priority: 0, detect: () => true });
  const hooks = createHostHooks();
  const vault = new HostVault({ home });
  watcher = new FolderWatcher();
  documents = new HostDocumentStore(
    kinds,
    hooks,
    vault,
    watcher,
    new LogHub(() => undefined),
    new WriteAcks(),
  );
  workbench = new HostWorkbench(documents, vault, hooks);
  store = new CheckpointStore({ home });
  context = { store, workbench, documents, tabOutlivesCall: true };
});

afterEach(async () => {
  documents.dispose();
  watcher.dispose();
  await fs.chmod(file, 0o644).catch(() => undefined);
  await fs.rm(home, { recursive: true, force: true });
  await fs.rm(dir, { recursive: true, force: true });
});

const buffer = () => documents.findByPath(file);

describe('restoreCheckpoint', () => {
  it('saves the text from before the edit as a new revision and records the restore, which undoes', async () => {
    const edit = await store.append(aiEdit('# Notes\n'));
    const result = await restoreCheckpoint(context, edit.id);
    expect(result).toEqual({
      restored: edit.id,
      filePath: file,
      revision: buffer()!.revision,
      changed: true,
    });
    expect(await fs.readFile(file, 'utf8')).toBe('# Notes\n');
    expect(buffer()).toMatchObject({ content: '# Notes\n', dirty: false });

    const [restore] = await store.list();
    expect(restore).toMatchObject<Partial<CheckpointEntry>>({
      tabId: workbench.tabOfDocument(buffer()!.id)!.id,
      filePath: file,
      tool: 'checkpoints.restore',
      description: `Restored ${edit.id} (-16 chars, was 24, now 8)`,
      revisionAfter: result.revision,
    });
    expect((await store.get(restore!.id)).contentBefore).toBe(ON_DISK);

    await restoreCheckpoint(context, restore!.id);
    expect(await fs.readFile(file, 'utf8')).toBe(ON_DISK);
  });

  it('names no tab when the tab ends with the call (the CLI)', async () => {
    const edit = await store.append(aiEdit('# Notes\n'));
    await restoreCheckpoint({ ...context, tabOutlivesCall: false }, edit.id);
    expect((await store.list())[0]).toMatchObject({ tool: 'checkpoints.restore', tabId: null });
  });

  it('changes and records nothing when the file already holds the text', async () => {
    const edit = await store.append(aiEdit(ON_DISK));
    const result = await restoreCheckpoint(context, edit.id);
    expect(result).toMatchObject({ changed: false, revision: buffer()!.revision });
    expect(await store.list()).toEqual([edit]);
  });

  it('refuses unknown ids, untitled documents and deleted files before opening anything', async () => {
    await expect(restoreCheckpoint(context, '../index.jsonl')).rejects.toThrow(UnknownCheckpointError);
    await expect(restoreCheckpoint(context, 'ckpt-00000000000000000')).rejects.toThrow(
      UnknownCheckpointError,
    );
    const untitled = await store.append(aiEdit('draft', { filePath: null }));
    await expect(restoreCheckpoint(context, untitled.id)).rejects.toThrow(
      new NotRestorableError(
        `Checkpoint ${untitled.id} is of an untitled document: there is no file to restore`,
      ),
    );
    const edit = await store.append(aiEdit('# Notes\n'));
    await fs.rm(file);
    const refused = restoreCheckpoint(context, edit.id);
    await expect(refused).rejects.toThrow(NotRestorableError);
    await expect(refused).rejects.toMatchObject({ code: 'INVALID_PATH' });
    await expect(fs.access(file)).rejects.toThrow();
    expect(workbench.state()[0]!.tabs).toEqual([]);
    expect(await store.list()).toHaveLength(2);
  });

  it('refuses to save over unsaved changes in the open document', async () => {
    const edit = await store.append(aiEdit('# Notes\n'));
    const { tabId } = await workbench.openFile(file, { consented: true });
    const { documentId } = workbench.resolveTab(tabId);
    await documents.replace(documentId, 'typed, not saved\n', { origin: { kind: 'host' } });
    await expect(restoreCheckpoint(context, edit.id)).rejects.toMatchObject({
      code: 'STALE',
      message: `${JSON.stringify(file)} has unsaved changes: save or discard them, then restore`,
    });
    expect(buffer()).toMatchObject({ content: 'typed, not saved\n', dirty: true });
    expect(await fs.readFile(file, 'utf8')).toBe(ON_DISK);
    expect(await store.list()).toEqual([edit]);
  });

  it('puts the text back when the file changed on disk and the save is refused', async () => {
    const edit = await store.append(aiEdit('# Notes\n'));
    await workbench.openFile(file, { consented: true });
    // The change is not heard before the restore (a watcher that reloaded the clean tab first
    // would make the restore a plain one over the text the tab then showed).
    watcher.dispose();
    await fs.writeFile(file, 'changed by another program\n');
    await expect(restoreCheckpoint(context, edit.id)).rejects.toMatchObject({ code: 'STALE' });
    expect(buffer()!.content).not.toBe('# Notes\n');
    expect(await fs.readFile(file, 'utf8')).toBe('changed by another program\n');
    expect(await store.list()).toEqual([edit]);
  });

  it('puts the text back when the file cannot be written', async () => {
    const edit = await store.append(aiEdit('# Notes\n'));
    await fs.chmod(file, 0o444);
    await expect(restoreCheckpoint(context, edit.id)).rejects.toMatchObject({ code: 'READ_ONLY' });
    expect(buffer()!.content).toBe(ON_DISK);
    expect(await fs.readFile(file, 'utf8')).toBe(ON_DISK);
    expect(await store.list()).toEqual([edit]);
  });

  it('says the file was restored when the restore cannot be recorded', async () => {
    const edit = await store.append(aiEdit('# Notes\n'));
    // Another live vmark process holds the index's lock past this store's patience.
    await fs.writeFile(path.join(store.folder, 'index.lock'), `${ownerTag()} someone-else`);
    const impatient = new CheckpointStore({ home, checkpointLock: { timeoutMs: 20 } });
    const refused = restoreCheckpoint({ ...context, store: impatient }, edit.id);
    await expect(refused).rejects.toThrow(RestoreNotRecordedError);
    const error = (await refused.catch((e: unknown) => e)) as RestoreNotRecordedError;
    expect(error.restore).toMatchObject({ restored: edit.id, filePath: file, changed: true });
    expect(error.message).toMatch(
      /^the file was restored, but the restore could not be recorded \(so cannot be undone\): .* is held by another vmark process/,
    );
    expect(await fs.readFile(file, 'utf8')).toBe('# Notes\n');
  });
});
