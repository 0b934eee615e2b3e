import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { collab, getSyncedVersion, receiveUpdates, sendableUpdates } from '@codemirror/collab';
import { ChangeSet, EditorState } from '@codemirror/state';
import type { ChangeOrigin } from '@vmark/sdk';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import documentPlugin from '../../plugins/document/src/index.js';
import { HostHooksToken } from '../../core/tokens/host-tokens.js';
import { HostDocumentStore } from '../../core/documents/document-store.js';
import { pluginHooks } from '../../core/hooks/plugin-hooks.js';
import { createHost, type Host } from '../../core/composition/host.js';
import { type ChangeSetJson, HOST_CLIENT_ID, type UpdateJson } from '../../core/protocol/protocol.js';
import { DocumentAuthority } from '../../core/shell/server/document-authority.js';

/*
 * The collab authority over a real host's document store, with editors
 * simulated by @codemirror/collab states (no DOM needed).
 */

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
let store: HostDocumentStore;
let authority: DocumentAuthority;
let documentId: string;
let heard: { version: number; updates: readonly UpdateJson[] }[];

beforeEach(async () => {
  const home = await fs.mkdtemp(path.join(os.tmpdir(), 'vmark-authority-home-'));
  const workspace = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'vmark-authority-ws-')));
  await fs.writeFile(path.join(workspace, 'notes.md'), 'Hello world\n');
  host = await createHost({
    home,
    userPlugins: false,
    extraPlugins: [
      { source: 'inline', dir: null, raw: documentManifest, load: () => Promise.resolve(documentPlugin) },
    ],
  });
  await host.workbench.openWorkspace(workspace);
  const { tabId } = await host.workbench.openFile(path.join(workspace, 'notes.md'));
  documentId = host.workbench.resolveTab(tabId).documentId;
  store = host.container.get(HostDocumentStore);
  authority = new DocumentAuthority(store, host.container.get(HostHooksToken));
  heard = [];
  authority.onUpdates((id, version, updates) => {
    if (id === documentId) heard.push({ version, updates });
  });
});
afterEach(async () => {
  authority.dispose();
  await host.dispose();
});

/** A simulated editor: a collab state that pushes and receives as the renderer does. */
class Editor {
  state: EditorState;

  constructor(readonly clientID: string) {
    const start = authority.snapshot(documentId);
    this.state = EditorState.create({
      doc: start.text,
      extensions: [EditorState.lineSeparator.of('\n'), collab({ startVersion: start.version, clientID })],
    });
  }

  type(at: number, text: string): void {
    this.state = this.state.update({ changes: { from: at, insert: text } }).state;
  }

  push(): Promise<boolean> {
    const updates = sendableUpdates(this.state).map((u) => ({
      clientID: u.clientID,
      changes: u.changes.toJSON() as ChangeSetJson,
    }));
    return authority.push(documentId, getSyncedVersion(this.state), updates);
  }

  /** Applies what the authority confirmed since this editor's version. */
  catchUp(): void {
    for (const { version, updates } of heard) {
      if (version < getSyncedVersion(this.state)) continue;
      const decoded = updates.map((u) => ({ clientID: u.clientID, changes: ChangeSet.fromJSON(u.changes) }));
      this.state = receiveUpdates(this.state, decoded).state;
    }
  }

  get text(): string {
    return this.state.doc.toString();
  }
}

describe('DocumentAuthority', () => {
  it('applies an editor’s push to the store as an editor change and confirms it to every editor', async () => {
    const origins: string[] = [];
    pluginHooks(host.container.get(HostHooksToken), 'test').tap('documentWritten', (e) =>
      origins.push(e.origin.kind),
    );
    const editor = new Editor('a');
    editor.type(5, ',');
    expect(await editor.push()).toBe(true);
    expect(store.get(documentId)).toMatchObject({ content: 'Hello, world\n', dirty: true });
    expect(origins).toEqual(['editor']);
    expect(heard).toEqual([{ version: 0, updates: [expect.objectContaining({ clientID: 'a' })] }]);
    expect(authority.snapshot(documentId).version).toBe(1);
  });

  it('refuses a push made against an old version, and the editor rebases and pushes again', async () => {
    const [a, b] = [new Editor('a'), new Editor('b')];
    a.type(0, 'A');
    b.type(12, 'B');
    expect(await a.push()).toBe(true);
    expect(await b.push()).toBe(false);
    b.catchUp();
    expect(await b.push()).toBe(true);
    a.catchUp();
    b.catchUp();
    expect(store.get(documentId).content).toBe('AHello world\nB');
    expect([a.text, b.text]).toEqual([store.get(documentId).content, store.get(documentId).content]);
  });

  it('turns a whole-text write from the host into one minimal update', async () => {
    const editor = new Editor('a');
    await store.replace(documentId, 'Hello there world\n', { origin: AI });
    expect(heard).toHaveLength(1);
    expect(heard[0]!.updates).toEqual([{ clientID: HOST_CLIENT_ID, changes: [6, [0, 'there '], 6] }]);
    editor.catchUp();
    expect(editor.text).toBe('Hello there world\n');
  });

  it('sends a range write as the change it was made with, not a diff of the two texts', async () => {
    const editor = new Editor('a');
    // A diff would send only the "W" → "w" of "world"; the range write replaced the whole word.
    await store.replaceRange(documentId, { from: 6, to: 11, insert: 'World' }, { origin: AI });
    expect(heard[0]!.updates).toEqual([{ clientID: HOST_CLIENT_ID, changes: [6, [5, 'World'], 1] }]);
    editor.catchUp();
    expect(editor.text).toBe('Hello World\n');
  });

  it('keeps keystrokes made while an AI write lands', async () => {
    const editor = new Editor('a');
    editor.type(12, 'typed');
    await store.replace(documentId, 'AI: Hello world\n', { origin: AI });
    expect(await editor.push()).toBe(false);
    editor.catchUp();
    expect(await editor.push()).toBe(true);
    expect(store.get(documentId).content).toBe('AI: Hello world\ntyped');
  });

  it('applies a push of several keystrokes in order, as one change to the store', async () => {
    const editor = new Editor('a');
    editor.type(5, ',');
    editor.type(12, '!');
    editor.type(0, '> ');
    const texts: string[] = [];
    pluginHooks(host.container.get(HostHooksToken), 'test').tap('documentWritten', (e) =>
      texts.push(e.after.content),
    );
    expect(await editor.push()).toBe(true);
    expect(texts).toEqual(['> Hello, world!\n']);
    expect(heard[0]!.updates).toHaveLength(3);
    expect(authority.snapshot(documentId).version).toBe(3);
  });

  it('refuses a push whose later update does not fit the text the earlier ones leave', async () => {
    const first = { clientID: 'a', changes: [12, [0, 'x']] as ChangeSetJson };
    const second = { clientID: 'a', changes: [12, [0, 'y']] as ChangeSetJson };
    await expect(authority.push(documentId, 0, [first, second])).rejects.toThrow(/spans 12 characters/);
    expect(store.get(documentId).content).toBe('Hello world\n');
  });

  it('refuses a push whose changes do not fit the document', async () => {
    const wrongLength = { clientID: 'a', changes: [3, [0, 'x']] as ChangeSetJson };
    await expect(authority.push(documentId, 0, [wrongLength])).rejects.toThrow(/spans 3 characters/);
    const notAChangeSet = { clientID: 'a', changes: ['x'] as unknown as ChangeSetJson };
    await expect(authority.push(documentId, 0, [notAChangeSet])).rejects.toThrow(/not a valid ChangeSet/);
    expect(store.get(documentId).content).toBe('Hello world\n');
  });

  it('tells editors when a beforeDocumentWrite tap rewrote their change', async () => {
    pluginHooks(host.container.get(HostHooksToken), 'test').tapWaterfall('beforeDocumentWrite', (p) => ({
      ...p,
      content: p.content.toUpperCase(),
    }));
    const editor = new Editor('a');
    editor.type(0, 'x');
    expect(await editor.push()).toBe(true);
    editor.catchUp();
    expect(editor.text).toBe('XHELLO WORLD\n');
    expect(heard.map((h) => h.updates[0]!.clientID)).toEqual(['a', HOST_CLIENT_ID]);
  });

  it('refuses a push that loses the race with a concurrent host write', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    pluginHooks(host.container.get(HostHooksToken), 'test').tapWaterfall('beforeDocumentWrite', async (p) => {
      if (p.origin.kind === 'editor') await gate;
      return p;
    });
    const editor = new Editor('a');
    editor.type(0, 'E');
    const pushed = editor.push();
    await store.replace(documentId, 'Hi world\n', { origin: AI });
    release();
    expect(await pushed).toBe(false);
    editor.catchUp();
    expect(await editor.push()).toBe(true);
    expect(store.get(documentId).content).toBe('EHi world\n');
  });

  describe('an AI write and save told to the editors before the disk holds it (ADR 55)', () => {
    const file = () => store.get(documentId).filePath!;
    /** Runs `inside` from the authority's first update: the editors were told, the save not done. */
    function whenTold(inside: () => void): { dirty: boolean; onDisk: string }[] {
      const seen: { dirty: boolean; onDisk: string }[] = [];
      authority.onUpdates(() => {
        if (seen.length > 0) return;
        seen.push({ dirty: store.get(documentId).dirty, onDisk: readFileSync(file(), 'utf8') });
        inside();
      });
      return seen;
    }
    const write = (content: string) =>
      store.write(documentId, content, {
        origin: AI,
        save: true,
        expectedRevision: store.get(documentId).revision,
      });

    it('is shown unsaved, then saved; keystrokes typed meanwhile are kept', async () => {
      const editor = new Editor('a');
      let typed: Promise<boolean> | undefined;
      const seen = whenTold(() => {
        editor.catchUp();
        editor.type(0, 'typed ');
        typed = editor.push();
      });
      expect(await write('AI: Hello world\n')).toMatchObject({ saved: true });
      expect(seen).toEqual([{ dirty: true, onDisk: 'Hello world\n' }]);
      expect(await typed).toBe(true);
      expect(store.get(documentId)).toMatchObject({ content: 'typed AI: Hello world\n', dirty: true });
      expect(await fs.readFile(file(), 'utf8')).toBe('AI: Hello world\n');
    });

    it('stays in the editors, unsaved, when the save fails after they were told', async () => {
      const editor = new Editor('a');
      whenTold(() => rmSync(file()));
      expect(await write('AI: Hello world\n')).toMatchObject({ saved: false });
      editor.catchUp();
      expect(editor.text).toBe('AI: Hello world\n');
      expect(store.get(documentId)).toMatchObject({
        content: 'AI: Hello world\n',
        dirty: true,
        conflict: { reason: 'deleted-on-disk' },
      });
    });

    it('reaches the editors before the host’s other documentWritten taps run, whenever those were made (ADR 85)', async () => {
      const hooks = host.container.get(HostHooksToken);
      const early: unknown[] = [];
      const heardByThen: number[] = [];
      // Tapped before the authority below is made, as the checkpoint recorder and every plugin are.
      const tap = pluginHooks(hooks, 'test').tap('documentWritten', () => heardByThen.push(early.length));
      const ahead = new DocumentAuthority(store, hooks);
      ahead.onUpdates((id, _version, updates) => {
        if (id === documentId) early.push(updates);
      });
      try {
        expect(await write('AI: Hello world\n')).toMatchObject({ saved: true });
        expect(heardByThen).toEqual([1]);
        expect(await fs.readFile(file(), 'utf8')).toBe('AI: Hello world\n');
      } finally {
        ahead.dispose();
        tap.dispose();
      }
    });

    it('never reaches the editors when it is refused: a stale revision, a veto, a file changed before it', async () => {
      const editor = new Editor('a');
      await expect(
        store.write(documentId, 'AI: stale\n', { origin: AI, save: true, expectedRevision: 'rev-00000000' }),
      ).rejects.toMatchObject({ code: 'STALE' });
      const veto = pluginHooks(host.container.get(HostHooksToken), 'test').tapWaterfall(
        'beforeDocumentWrite',
        (p) => ({ ...p, veto: 'not now' }),
      );
      await expect(write('AI: vetoed\n')).rejects.toMatchObject({ code: 'READ_ONLY' });
      veto.dispose();
      expect(heard).toEqual([]);
      writeFileSync(file(), 'Outside: Hello world\n');
      await expect(write('AI: over the outside write\n')).rejects.toMatchObject({ code: 'STALE' });
      editor.catchUp();
      expect(editor.text).toBe('Outside: Hello world\n');
      expect(JSON.stringify(heard)).not.toContain('AI:');
      expect(await fs.readFile(file(), 'utf8')).toBe('Outside: Hello world\n');
    });

    it('is taken back out when another program writes inside the save; the person’s keystroke is kept', async () => {
      const editor = new Editor('a');
      let typed: Promise<boolean> | undefined;
      whenTold(() => {
        editor.catchUp();
        editor.type(0, 'typed ');
        typed = editor.push();
        writeFileSync(file(), 'Outside: Hello world\n');
      });
      await expect(write('AI: Hello world\n')).rejects.toMatchObject({ code: 'STALE' });
      expect(await fs.readFile(file(), 'utf8')).toBe('Outside: Hello world\n');
      // The push waited behind the save and lost the race; the editor rebases over the disk's text.
      expect(await typed).toBe(false);
      editor.catchUp();
      expect(await editor.push()).toBe(true);
      editor.catchUp();
      const text = store.get(documentId).content;
      expect(text).toContain('typed ');
      expect(text).toContain('Hello world\n');
      expect(text).not.toContain('AI:');
      expect(editor.text).toBe(text);
      expect(await fs.readFile(file(), 'utf8')).toBe('Outside: Hello world\n');
    });
  });
});
