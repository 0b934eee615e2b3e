import { readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ChangeOrigin } from '@vmark/sdk';
import { listenToLog } from '@vmark/sdk/testing';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import documentPlugin from '../../plugins/document/src/index.js';
import { HostHooksToken } from '../../core/tokens/host-tokens.js';
import { HostDocumentStore } from '../../core/documents/document-store.js';
import { createHost, type Host } from '../../core/composition/host.js';
import type { CheckpointEntry } from '../../core/history/checkpoint-entry.js';
import { CheckpointRecorder } from '../../core/history/checkpoint-recorder.js';
import { CheckpointStore } from '../../core/history/checkpoint-store.js';

/*
 * The recorder in a real host with the real document plugin, wired into the
 * host's container the way host-module is to wire it, and driven through a real
 * MCP client: what an AI client's `document.write` leaves in the history.
 */

const documentManifest: unknown = JSON.parse(
  readFileSync(new URL('../../plugins/document/manifest.json', import.meta.url), 'utf8'),
);

const CALLER = { connectionId: 'conn-test', clientName: 'test', clientVersion: '1', principal: null };

let home: string;
let workspace: string;
let file: string;
let host: Host;
let client: Client;
let closeSession: () => void;
let recorder: CheckpointRecorder;
let store: CheckpointStore;
let documents: HostDocumentStore;

beforeEach(async () => {
  home = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'vmark-rec-home-')));
  workspace = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'vmark-rec-ws-')));
  file = path.join(workspace, 'notes.md');
  await fs.writeFile(file, 'Hello\n');
  host = await createHost({
    home,
    userPlugins: false,
    extraPlugins: [
      { source: 'inline', dir: null, raw: documentManifest, load: () => Promise.resolve(documentPlugin) },
    ],
  });
  // The host binds and starts the recorder itself.
  recorder = host.container.get(CheckpointRecorder);
  store = host.container.get(CheckpointStore);
  documents = host.container.get(HostDocumentStore);

  await host.workbench.openWorkspace(workspace);
  await host.workbench.openFile(file);
  const session = host.createMcpSession();
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  client = new Client({ name: 'recorder-test', version: '1.0.0' });
  await session.server.connect(serverSide);
  await client.connect(clientSide);
  closeSession = () => session.dispose();
});

afterEach(async () => {
  vi.restoreAllMocks();
  await client.close();
  closeSession();
  await host.dispose();
  await fs.rm(home, { recursive: true, force: true });
  await fs.rm(workspace, { recursive: true, force: true });
});

async function write(content: string, tabId?: string): Promise<{ revision: string; saved: boolean }> {
  const result = (await client.callTool({
    name: 'document',
    arguments: { action: 'write', content, ...(tabId ? { tabId } : {}) },
  })) as CallToolResult;
  expect(result.isError).not.toBe(true);
  return result.structuredContent as { revision: string; saved: boolean };
}

/** The one checkpoint recorded so far, once it is on disk. */
async function onlyCheckpoint(): Promise<CheckpointEntry> {
  await recorder.flush();
  const entries = await store.list();
  expect(entries).toHaveLength(1);
  return entries[0]!;
}

const mcp = (tool: string, action: string, description?: string): ChangeOrigin => ({
  kind: 'mcp',
  caller: CALLER,
  tool,
  action,
  ...(description === undefined ? {} : { description }),
});

describe('CheckpointRecorder', () => {
  it('records an AI document.write with the text it replaced', async () => {
    const tab = host.workbench.resolveTab();
    const before = documents.get(tab.documentId);
    const written = await write('Hello, world!\n');
    const entry = await onlyCheckpoint();
    expect(entry).toEqual({
      id: expect.stringMatching(/^ckpt-/),
      createdAt: expect.any(String),
      tabId: tab.id,
      filePath: file,
      tool: 'document.write',
      description: 'Wrote document (+8 chars, was 6, now 14)',
      revisionBefore: before.revision,
      revisionAfter: written.revision,
      bytesBefore: 6,
    });
    expect((await store.get(entry.id)).contentBefore).toBe('Hello\n');
  });

  it('writes the sign of a shrink, and records successive edits in order', async () => {
    await write('Hello, world!\n');
    await write('Hi\n');
    await write('Hi\n'); // unchanged: no new revision, nothing to undo
    await recorder.flush();
    const list = await store.list();
    expect(list.map((e) => e.description)).toEqual([
      'Wrote document (-11 chars, was 14, now 3)',
      'Wrote document (+8 chars, was 6, now 14)',
    ]);
    expect(list[0]!.revisionBefore).toBe(list[1]!.revisionAfter);
    expect((await store.get(list[0]!.id)).contentBefore).toBe('Hello, world!\n');
  });

  it("keeps the origin's description, and derives one from any other tool", async () => {
    const { documentId } = host.workbench.resolveTab();
    await documents.replace(documentId, 'Hello\nname: x\n', {
      origin: mcp('workflow', 'apply_patch', 'Set build.runs-on'),
    });
    await documents.replace(documentId, 'Hello\n', { origin: mcp('selection', 'set') });
    await recorder.flush();
    expect((await store.list()).map((e) => [e.tool, e.description])).toEqual([
      ['selection.set', 'selection.set (-8 chars, was 14, now 6)'],
      ['workflow.apply_patch', 'Set build.runs-on'],
    ]);
  });

  it('does not record changes made by a person, the disk or the host', async () => {
    const { documentId } = host.workbench.resolveTab();
    const origins: ChangeOrigin[] = [{ kind: 'editor' }, { kind: 'disk' }, { kind: 'host' }];
    for (const [i, origin] of origins.entries()) {
      await documents.replace(documentId, `change ${i}\n`, { origin });
    }
    await recorder.flush();
    expect(await store.list()).toEqual([]);
  });

  it('records an untitled document with its tab and no file', async () => {
    const { tabId } = host.workbench.newTab();
    await write('draft\n', tabId);
    await recorder.flush();
    expect(await store.list()).toEqual([
      expect.objectContaining({
        tabId,
        filePath: null,
        description: 'Wrote document (+6 chars, was 0, now 6)',
      }),
    ]);
  });

  it('writes the file while the checkpoint is on its way, and answers only once both are on disk (ADR 60)', async () => {
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const append = store.append.bind(store);
    vi.spyOn(store, 'append').mockImplementation(async (checkpoint, onDurable) => {
      await gate;
      return append(checkpoint, onDurable);
    });
    let answered = false;
    const written = write('fast\n').then((outcome) => ((answered = true), outcome));
    // The file does not wait for the checkpoint; the answer does.
    await vi.waitFor(async () => expect(await fs.readFile(file, 'utf8')).toBe('fast\n'));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(answered).toBe(false);
    expect(await store.list()).toEqual([]);
    release();
    expect((await written).saved).toBe(true);
    expect(await store.list()).toHaveLength(1);
  });

  it('never fails a write it cannot record, and says so on stderr and to MCP clients once, without the text', async () => {
    // A file where the checkpoints folder should be: every append fails the same way.
    await fs.writeFile(path.join(home, 'checkpoints'), '');
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const told = listenToLog(client).messages;
    await write('SECRET one\n');
    await write('SECRET two\n');
    await recorder.flush();
    expect(await fs.readFile(file, 'utf8')).toBe('SECRET two\n');
    const messages = stderr.mock.calls.map(([text]) => String(text));
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatch(/^vmark: could not record an AI edit checkpoint \(E[A-Z]+\)/);
    expect(messages.join('')).not.toContain('SECRET');
    expect(messages.join('')).not.toContain('Hello');
    // A request after the failure: the notification, sent before it is answered, has arrived.
    await client.ping();
    expect(told).toEqual([
      { level: 'error', logger: 'checkpoints', data: messages[0]!.slice('vmark: '.length).trimEnd() },
    ]);
  });

  it('records the text of a file a save_as replaced, under that file, so that a restore puts it back', async () => {
    const other = path.join(workspace, 'other.md');
    await fs.writeFile(other, 'Their text\n');
    const tab = host.workbench.resolveTab();
    const saved = await host.workbench.saveAs(tab.id, other, {
      confirm: () => Promise.resolve(),
      origin: mcp('workspace', 'save_as'),
    });
    const entry = await onlyCheckpoint();
    expect(entry).toEqual({
      id: expect.stringMatching(/^ckpt-/),
      createdAt: expect.any(String),
      tabId: tab.id,
      filePath: other,
      tool: 'workspace.save_as',
      description: 'Replaced other.md with a save_as (-5 chars, was 11, now 6)',
      revisionBefore: saved.revision,
      revisionAfter: saved.revision,
      bytesBefore: 11,
    });
    expect((await store.get(entry.id)).contentBefore).toBe('Their text\n');
  });

  it('stops recording once disposed, and untaps by its name', async () => {
    const hooks = host.container.get(HostHooksToken);
    expect(hooks.documentWritten.taps.map((t) => t.name)).toContain('checkpoints');
    recorder.start(); // a second start does not tap twice
    expect(hooks.documentWritten.taps.filter((t) => t.name === 'checkpoints')).toHaveLength(1);
    expect(hooks.fileReplaced.taps.filter((t) => t.name === 'checkpoints')).toHaveLength(1);
    recorder.dispose();
    expect(hooks.documentWritten.taps.map((t) => t.name)).not.toContain('checkpoints');
    expect(hooks.fileReplaced.taps.map((t) => t.name)).not.toContain('checkpoints');
    await write('unrecorded\n');
    await recorder.flush();
    expect(await store.list()).toEqual([]);
  });
});
