import { readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { ChangeOrigin } from '@vmark/sdk';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import documentPlugin from '../../plugins/document/src/index.js';
import { HostDocumentStore } from '../../core/documents/document-store.js';
import { FolderWatcher } from '../../core/documents/folder-watcher.js';
import { CheckpointRecorder } from '../../core/history/checkpoint-recorder.js';
import { CheckpointStore } from '../../core/history/checkpoint-store.js';
import { createHost, type Host } from '../../core/composition/host.js';
import type { PanelMessage } from '../../core/protocol/panel-protocol.js';
import { UiHistory } from '../../core/shell/server/history-service.js';

const documentManifest: unknown = JSON.parse(
  readFileSync(new URL('../../plugins/document/manifest.json', import.meta.url), 'utf8'),
);
const AI: ChangeOrigin = {
  kind: 'mcp',
  caller: { connectionId: 'c', clientName: 't', clientVersion: '1', principal: null },
  tool: 'document',
  action: 'write',
};

let host: Host;
let home: string;
let workspace: string;
let file: string;
let documents: HostDocumentStore;
let store: CheckpointStore;
let history: UiHistory;
let documentId: string;

beforeEach(async () => {
  home = await fs.mkdtemp(path.join(os.tmpdir(), 'vmark-history-home-'));
  workspace = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'vmark-history-ws-')));
  file = path.join(workspace, 'notes.md');
  await fs.writeFile(file, 'first\n');
  host = await createHost({
    home,
    userPlugins: false,
    extraPlugins: [
      { source: 'inline', dir: null, raw: documentManifest, load: () => Promise.resolve(documentPlugin) },
    ],
  });
  await host.workbench.openWorkspace(workspace);
  const { tabId } = await host.workbench.openFile(file);
  documentId = host.workbench.resolveTab(tabId).documentId;
  documents = host.container.get(HostDocumentStore);
  store = host.container.get(CheckpointStore);
  history = new UiHistory(store, host.workbench, documents, host.container.get(FolderWatcher));
});
afterEach(async () => {
  history.dispose();
  await host.dispose();
});

/** An AI's write, saved, and its checkpoint on disk. */
async function aiWrite(content: string): Promise<void> {
  await documents.replace(documentId, content, { origin: AI });
  await documents.save(documentId);
  await host.container.get(CheckpointRecorder).flush();
}

describe('UiHistory', () => {
  it('lists AI edits newest first, pushes each new one, and filters by file', async () => {
    const heard: PanelMessage[] = [];
    history.attach((m) => heard.push(m));
    await aiWrite('second\n');
    await aiWrite('third\n');
    const listed = await history.list();
    expect(listed.map((c) => c.description)).toEqual([
      'Wrote document (-1 chars, was 7, now 6)',
      'Wrote document (+1 chars, was 6, now 7)',
    ]);
    expect(listed[0]).toEqual({
      id: expect.stringMatching(/^ckpt-/),
      createdAt: expect.any(String),
      tool: 'document.write',
      description: expect.any(String),
      filePath: file,
    });
    const added = heard.flatMap((m) => (m.type === 'history.added' ? [m.checkpoint.id] : []));
    expect(added).toEqual([...listed].reverse().map((c) => c.id));
    expect(await history.list(file)).toEqual(listed);
    expect(await history.list(path.join(workspace, 'other.md'))).toEqual([]);
    await expect(history.list('notes.md')).rejects.toThrow('filePath must be an absolute path');
  });

  it('tells every window when another process changes the history, while one is attached', async () => {
    const heard: PanelMessage[] = [];
    const attached = history.attach((m) => heard.push(m));
    // Another process (a `vmark checkpoints restore` in a terminal) has its own store on the same home;
    // it appends until the watch (which starts as the window attaches) has heard one.
    const elsewhere = new CheckpointStore({ home });
    const changed = () => heard.filter((m) => m.type === 'history.changed').length;
    await vi.waitFor(async () => {
      await elsewhere.append({
        tabId: null,
        filePath: file,
        tool: 'checkpoints.restore',
        description: 'from a terminal',
        revisionBefore: 'rev-AAAAAAAA',
        revisionAfter: 'rev-BBBBBBBB',
        contentBefore: 'old',
      });
      expect(changed()).toBeGreaterThan(0);
    });
    expect(heard.some((m) => m.type === 'history.added')).toBe(false);
    expect((await history.list())[0]).toMatchObject({ description: 'from a terminal' });

    attached.dispose();
  });

  it('restores the text from before an edit as a new saved revision, and records the restore', async () => {
    await aiWrite('rewritten by the AI\n');
    const [edit] = await history.list();
    const before = documents.get(documentId).revision;
    const result = await history.restore(edit!.id);
    expect(result).toEqual({
      restored: edit!.id,
      filePath: file,
      revision: expect.any(String),
      changed: true,
    });
    expect(result.revision).not.toBe(before);
    expect(documents.get(documentId).content).toBe('first\n');
    expect(await fs.readFile(file, 'utf8')).toBe('first\n');
    const [restore] = await history.list();
    expect(restore).toMatchObject({ tool: 'checkpoints.restore', filePath: file });
    expect(restore!.description).toMatch(new RegExp(`^Restored ${edit!.id} `));
    // The restore can itself be undone.
    await history.restore(restore!.id);
    expect(await fs.readFile(file, 'utf8')).toBe('rewritten by the AI\n');
    // Restoring text the file already holds changes nothing.
    expect(await history.restore(restore!.id)).toMatchObject({ changed: false });
  });

  it('refuses unknown ids, untitled documents and deleted files, changing nothing', async () => {
    await expect(history.restore('../../etc/passwd')).rejects.toThrow('is not a checkpoint id');
    await expect(history.restore('ckpt-00000000000000000')).rejects.toThrow('no checkpoint with id');
    const untitled = await store.append({
      tabId: null,
      filePath: null,
      tool: 'document.write',
      description: 'x',
      revisionBefore: 'rev-AAAAAAAA',
      revisionAfter: 'rev-BBBBBBBB',
      contentBefore: 'old',
    });
    await expect(history.restore(untitled.id)).rejects.toMatchObject({ code: 'INVALID_PATH' });
    await aiWrite('second\n');
    const [edit] = await history.list(file);
    await fs.rm(file);
    await expect(history.restore(edit!.id)).rejects.toMatchObject({ code: 'INVALID_PATH' });
  });

  it('puts the text back when the file changed on disk and the save is refused', async () => {
    // The change is not heard before the restore (a watcher that reloaded the clean tab first
    // would make the restore a plain one over the text the tab then showed). Stopped before the
    // AI's own save: a look at the disk that save's events scheduled would otherwise still run,
    // after the change below on a loaded machine, and reload the tab.
    host.container.get(FolderWatcher).dispose();
    await aiWrite('second\n');
    const [edit] = await history.list();
    await fs.writeFile(file, 'changed by another program\n');
    await expect(history.restore(edit!.id)).rejects.toMatchObject({ code: 'STALE' });
    expect(documents.get(documentId).content).not.toBe('first\n');
    expect(await fs.readFile(file, 'utf8')).toBe('changed by another program\n');
    expect(await history.list()).toHaveLength(1);
  });
});
