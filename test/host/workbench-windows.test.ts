import { readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { ChangeOrigin } from '@vmark/sdk';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import documentPlugin from '../../plugins/document/src/index.js';
import { HostDocumentStore } from '../../core/documents/document-store.js';
import { createHost, type Host } from '../../core/composition/host.js';

/* Several windows, each with its own workspace rail, on a real host. */

const documentManifest: unknown = JSON.parse(
  readFileSync(new URL('../../plugins/document/manifest.json', import.meta.url), 'utf8'),
);
const EDIT: ChangeOrigin = { kind: 'editor' };

let host: Host;
let first: string;
let second: string;

beforeEach(async () => {
  const home = await fs.mkdtemp(path.join(os.tmpdir(), 'vmark-windows-home-'));
  first = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'vmark-windows-a-')));
  second = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'vmark-windows-b-')));
  for (const folder of [first, second]) {
    await fs.writeFile(path.join(folder, 'one.md'), 'one\n');
    await fs.writeFile(path.join(folder, 'two.md'), 'two\n');
  }
  host = await createHost({
    home,
    userPlugins: false,
    extraPlugins: [
      { source: 'inline', dir: null, raw: documentManifest, load: () => Promise.resolve(documentPlugin) },
    ],
  });
});
afterEach(async () => {
  await host.dispose();
});

const windowOf = (label: string) => host.workbench.state().find((w) => w.label === label);

describe('several windows', () => {
  it('opens windows with fresh labels, each with its own tabs, and moves the focus between them', async () => {
    await host.workbench.openWorkspace(first);
    const w2 = host.workbench.openWindow();
    const w3 = host.workbench.openWindow();
    expect([w2, w3]).toEqual(['w-2', 'w-3']);
    const { tabId } = await host.workbench.openFile(path.join(first, 'one.md'), { windowLabel: w2 });
    expect(windowOf(w2)?.tabs.map((t) => t.id)).toEqual([tabId]);
    expect(windowOf('main')?.tabs).toEqual([]);
    expect(windowOf('main')?.focused).toBe(true);
    host.workbench.focusWindow(w2);
    expect(host.workbench.state().map((w) => [w.label, w.focused])).toEqual([
      ['main', false],
      ['w-2', true],
      ['w-3', false],
    ]);
    // With no tabId, tools address the focused window's tab.
    expect(host.workbench.resolveTab().id).toBe(tabId);
    expect(host.workbench.hasWindow(w3)).toBe(true);
  });

  it('closes a window: clean tabs close, unsaved ones move to main, the focus goes back to main', async () => {
    await host.workbench.openWorkspace(first);
    const w2 = host.workbench.openWindow();
    host.workbench.focusWindow(w2);
    const clean = await host.workbench.openFile(path.join(first, 'one.md'), { windowLabel: w2 });
    const dirty = await host.workbench.openFile(path.join(first, 'two.md'), { windowLabel: w2 });
    const store = host.container.get(HostDocumentStore);
    await store.replace(host.workbench.resolveTab(dirty.tabId).documentId, 'edited\n', { origin: EDIT });
    host.workbench.closeWindow(w2);
    expect(host.workbench.hasWindow(w2)).toBe(false);
    const main = windowOf('main');
    expect(main?.focused).toBe(true);
    expect(main?.tabs.map((t) => [t.id, t.dirty, t.active])).toEqual([[dirty.tabId, true, true]]);
    expect(() => host.workbench.resolveTab(clean.tabId)).toThrow(/Unknown tabId/);
    // A label is never handed out twice.
    expect(host.workbench.openWindow()).toBe('w-3');
  });

  it('refuses to close main or an unknown window, changing nothing', async () => {
    const before = host.workbench.state();
    expect(() => host.workbench.closeWindow('main')).toThrow(/main window cannot be closed/);
    expect(() => host.workbench.closeWindow('w-9')).toThrow(/does not name an open window/);
    await expect(host.workbench.openFile('x.md', { windowLabel: 'w-9' })).rejects.toThrow(/w-9/);
    expect(host.workbench.state()).toEqual(before);
  });
});

describe('the workspace rail', () => {
  it('lists the instances of a window, and showing one makes its tabs the visible ones', async () => {
    const a = (await host.workbench.openWorkspace(first)).workspaceInstanceId;
    const b = (await host.workbench.openWorkspace(second)).workspaceInstanceId;
    expect(host.workbench.workspaces('main')).toEqual([
      { id: a, root: first },
      { id: b, root: second },
    ]);
    const inA = await host.workbench.openFile(path.join(first, 'one.md'));
    const inB1 = await host.workbench.openFile(path.join(second, 'one.md'));
    const inB2 = await host.workbench.openFile(path.join(second, 'two.md'));
    expect(windowOf('main')?.activeWorkspaceInstanceId).toBe(a);

    expect(host.workbench.showWorkspace('main', b)).toEqual({
      workspaceInstanceId: b,
      activeTabId: inB1.tabId,
    });
    const shown = windowOf('main');
    expect(shown?.activeWorkspaceInstanceId).toBe(b);
    expect(shown?.tabs.map((t) => [t.id, t.visible, t.active])).toEqual([
      [inA.tabId, false, false],
      [inB1.tabId, true, true],
      [inB2.tabId, true, false],
    ]);
    // Coming back shows the tab last shown there; leaving again remembers the other one.
    host.workbench.switchTab(inB2.tabId);
    expect(host.workbench.showWorkspace('main', a).activeTabId).toBe(inA.tabId);
    expect(host.workbench.showWorkspace('main', b).activeTabId).toBe(inB2.tabId);
  });

  it('shows an instance without tabs with no active tab, and keeps each window to its own instances', async () => {
    const a = (await host.workbench.openWorkspace(first)).workspaceInstanceId;
    await host.workbench.openFile(path.join(first, 'one.md'));
    const w2 = host.workbench.openWindow();
    const b = (await host.workbench.openWorkspace(second, { windowLabel: w2 })).workspaceInstanceId;
    expect(host.workbench.workspaces(w2)).toEqual([{ id: b, root: second }]);
    expect(host.workbench.showWorkspace(w2, b)).toEqual({ workspaceInstanceId: b, activeTabId: null });
    const before = host.workbench.state();
    expect(() => host.workbench.showWorkspace(w2, a)).toThrow(/is not a workspace of window w-2/);
    expect(() => host.workbench.showWorkspace('main', 'wsi-nope')).toThrow(/is not a workspace/);
    expect(() => host.workbench.workspaces('w-9')).toThrow(/does not name an open window/);
    expect(host.workbench.state()).toEqual(before);
  });
});
