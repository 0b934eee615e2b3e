import { mkdir, realpath, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { call, TempDirs } from './support/cli.js';
import { connectMcp, sharedChromium, type Served, startServe } from './support/ui.js';

/*
 * Several browser windows on one `vmark serve`, each a workbench window of its
 * own, and the workspace rail, as a person and an AI client use them together.
 */

interface WindowJson {
  label: string;
  focused: boolean;
  activeWorkspaceInstanceId: string | null;
  tabs: { id: string; title: string; visible: boolean; active: boolean }[];
}

const temp = new TempDirs();
let browser: Browser;
let served: Served;
let vault: string;
let client: Client;
const pages: Page[] = [];

beforeAll(async () => {
  browser = await sharedChromium();
});
afterAll(async () => {
  await temp.cleanup();
});

beforeEach(async () => {
  vault = await realpath(await temp.make('vmark-windows-vault-'));
  await writeFile(path.join(vault, 'Welcome.md'), '# Welcome\n');
  await writeFile(path.join(vault, 'Other.md'), 'other\n');
  served = await startServe(
    ['--workspace', vault, '--open', path.join(vault, 'Welcome.md')],
    await temp.make(),
  );
  client = await connectMcp(served);
});
afterEach(async () => {
  await client?.close();
  for (const page of pages.splice(0)) await page.close();
  await served?.stop();
});

/** A new browser window on the editor, once it shows which workbench window it is. */
async function openWindow(): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1100, height: 700 } });
  pages.push(page);
  await page.goto(served.url);
  await page.locator('.app[data-window]').waitFor();
  return page;
}

const labelOf = (page: Page) => page.locator('.app').getAttribute('data-window');
const tabTitles = (page: Page) => page.locator('.tabs .tab .tab-title').allTextContents();
const windows = async () =>
  (await call(client, 'session', { action: 'get_state' })).data.windows as WindowJson[];
const focusedLabel = async () => (await windows()).find((w) => w.focused)?.label;
/** The grace a closed page's window gets for a reload is a few seconds: wait that long for it. */
const SLOW = { timeout: 15_000, interval: 100 };

describe('several windows', () => {
  it('makes each page a window of its own: labels, focus, tabs, reload and close', async () => {
    const first = await openWindow();
    const second = await openWindow();
    expect([await labelOf(first), await labelOf(second)]).toEqual(['main', 'w-2']);
    expect((await windows()).map((w) => w.label)).toEqual(['main', 'w-2']);

    // The focused window is the page the person last turned to.
    await second.locator('.sidebar-header').click();
    await expect.poll(focusedLabel).toBe('w-2');
    await first.locator('.sidebar-header').click();
    await expect.poll(focusedLabel).toBe('main');

    // focus_window moves it, and the page shows that it was called.
    const focused = await call(client, 'workspace', { action: 'focus_window', windowLabel: 'w-2' });
    expect(focused.isError).toBe(false);
    expect(await focusedLabel()).toBe('w-2');
    await expect.poll(() => second.locator('.app').getAttribute('data-window-focused')).toBe('true');
    await expect.poll(() => first.locator('.app').getAttribute('data-window-focused')).toBe('false');
    const unknown = await call(client, 'workspace', { action: 'focus_window', windowLabel: 'w-9' });
    expect(unknown.isError).toBe(true);
    expect(await focusedLabel()).toBe('w-2');

    // An AI client's open with windowLabel lands in that page only.
    const opened = await call(client, 'workspace', {
      action: 'open',
      filePath: path.join(vault, 'Other.md'),
      windowLabel: 'w-2',
    });
    expect(opened.isError).toBe(false);
    await expect.poll(() => tabTitles(second)).toEqual(['Other']);
    expect(await tabTitles(first)).toEqual(['Welcome']);
    const state = await windows();
    expect(state.find((w) => w.label === 'w-2')?.tabs.map((t) => t.title)).toEqual(['Other']);
    expect(state.find((w) => w.label === 'main')?.tabs.map((t) => t.title)).toEqual(['Welcome']);

    // A file the person opens that is already open in another window brings that window forward.
    await first.locator('.sidebar-header').click();
    await expect.poll(focusedLabel).toBe('main');
    await first.locator('.tree-file-row', { hasText: 'Other' }).click();
    await expect.poll(focusedLabel).toBe('w-2');
    expect(await tabTitles(first)).toEqual(['Welcome']);

    // A reload keeps the page's window and its tabs.
    await second.reload();
    await second.locator('.app[data-window]').waitFor();
    expect(await labelOf(second)).toBe('w-2');
    await expect.poll(() => tabTitles(second)).toEqual(['Other']);

    // Closed for good: its window goes; a new page gets a new label.
    await second.close();
    await expect.poll(async () => (await windows()).map((w) => w.label), SLOW).toEqual(['main']);
    const third = await openWindow();
    expect(await labelOf(third)).toBe('w-3');
  });

  it('keeps a called window’s highlight until its own animation ends, not another one’s below it', async () => {
    const page = await openWindow();
    await page.locator('.cm-content').waitFor();
    const kept = await page.evaluate(() => {
      const root = document.querySelector('.app')!;
      root.classList.add('is-called');
      // animationend bubbles: the editor's cursor layer ended a 0 ms animation at every keystroke.
      const inner = new AnimationEvent('animationend', { bubbles: true, animationName: 'cm-blink' });
      document.querySelector('.cm-content')!.dispatchEvent(inner);
      const afterInner = root.classList.contains('is-called');
      root.dispatchEvent(
        new AnimationEvent('animationend', { bubbles: true, animationName: 'window-called' }),
      );
      return [afterInner, root.classList.contains('is-called')];
    });
    expect(kept).toEqual([true, false]);
  });

  it('switches to a file open in another window there, and says in this one where it is', async () => {
    const first = await openWindow();
    const second = await openWindow();
    await writeFile(path.join(vault, 'Third.md'), 'third\n');
    for (const file of ['Other.md', 'Third.md']) {
      const opened = await call(client, 'workspace', {
        action: 'open',
        filePath: path.join(vault, file),
        windowLabel: 'w-2',
      });
      expect(opened.isError).toBe(false);
    }
    // w-2 shows Other; the person, in main, clicks Third in the file list.
    const active = (page: Page) => page.locator('.tabs .tab[aria-selected=true] .tab-title').textContent();
    await expect.poll(() => tabTitles(second)).toEqual(['Other', 'Third']);
    expect(await active(second)).toBe('Other');
    await first.locator('.sidebar-header').click();
    await expect.poll(focusedLabel).toBe('main');
    await first.locator('.tree-file-row', { hasText: 'Third' }).click();

    // That window shows it and becomes the person's; this one says so, and does not open a second copy.
    await expect.poll(() => active(second)).toBe('Third');
    await expect.poll(focusedLabel).toBe('w-2');
    const toast = first.locator('.toast');
    await toast.waitFor();
    expect(await toast.textContent()).toBe('“Third” is open in window w-2: it is shown there.');
    expect(await toast.getAttribute('class')).toContain('toast-info');
    expect(await tabTitles(first)).toEqual(['Welcome']);
  });

  it('gives a page that asks for a label held by another page a window of its own', async () => {
    const first = await openWindow();
    const impostor = await rawWindow('main');
    try {
      expect(impostor.state().window.label).toBe('w-2');
      expect(await labelOf(first)).toBe('main');
    } finally {
      impostor.close();
    }
  });
});

describe('the workspace rail', () => {
  const rail = (page: Page) => page.locator('.workspace-rail .rail-item');
  const treeRoots = (page: Page) => page.locator('.file-tree .tree-root > .tree-row').allTextContents();

  it('lists the window’s workspaces, adds an approved one, and switches the file tree and tabs', async () => {
    const page = await openWindow();
    const other = await realpath(await temp.make('vmark-windows-other-'));
    await mkdir(path.join(other, 'notes'));
    await writeFile(path.join(other, 'Elsewhere.md'), 'elsewhere\n');
    await expect.poll(() => rail(page).count()).toBe(1);
    expect(await rail(page).first().getAttribute('title')).toBe(vault);
    expect(await rail(page).first().getAttribute('aria-current')).toBe('true');

    // Opening a workspace, approved in the editor's dialog, adds it to the rail.
    const asked = call(client, 'workspace', { action: 'open_workspace', folderPath: other });
    const dialog = page.locator('dialog.approval-dialog[open]');
    await dialog.waitFor();
    await dialog.locator('[data-answer=allow]').click();
    const opened = await asked;
    expect(opened.isError).toBe(false);
    const added = opened.data.workspaceInstanceId as string;
    await expect.poll(() => rail(page).count()).toBe(2);
    expect(await rail(page).nth(1).getAttribute('title')).toBe(other);
    expect(await rail(page).nth(1).getAttribute('aria-label')).toBe(path.basename(other));
    const main = async () => (await windows()).find((w) => w.label === 'main')!;
    const firstId = (await main()).activeWorkspaceInstanceId;
    expect(firstId).not.toBe(added);

    // Switching in the rail: the tree shows that folder, the other workspace's tabs leave the strip.
    await rail(page).nth(1).click();
    await expect.poll(async () => (await main()).activeWorkspaceInstanceId).toBe(added);
    await expect.poll(() => treeRoots(page)).toEqual([path.basename(other)]);
    await page.locator('.tree-file-row', { hasText: 'Elsewhere' }).waitFor();
    expect(await tabTitles(page)).toEqual([]);
    expect((await main()).tabs.map((t) => [t.title, t.visible])).toEqual([['Welcome', false]]);
    expect(await rail(page).nth(1).getAttribute('aria-current')).toBe('true');

    // And back: the first workspace's tab returns, active again.
    await rail(page).first().click();
    await expect.poll(async () => (await main()).activeWorkspaceInstanceId).toBe(firstId);
    await expect.poll(() => treeRoots(page)).toEqual([path.basename(vault)]);
    await expect.poll(() => tabTitles(page)).toEqual(['Welcome']);
    expect((await main()).tabs.map((t) => [t.title, t.visible, t.active])).toEqual([['Welcome', true, true]]);
  });

  it('refuses to show a workspace that is not the window’s own, changing nothing', async () => {
    await openWindow();
    const before = await windows();
    const mainWorkspace = before[0]!.activeWorkspaceInstanceId!;
    const other = await rawWindow(null);
    try {
      for (const workspaceInstanceId of [mainWorkspace, 'wsi-nope', '']) {
        const reply = await other.request('workspace.show', { workspaceInstanceId });
        expect(reply).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENT' } });
      }
      expect((await windows()).find((w) => w.label === 'main')).toEqual(before[0]);
    } finally {
      other.close();
    }
  });
});

/** A page speaking the protocol directly, asking for a window label. */
async function rawWindow(label: string | null): Promise<{
  state: () => { window: { label: string } };
  request: (method: string, params: unknown) => Promise<unknown>;
  close: () => void;
}> {
  const { port } = new URL(served.url);
  const query = label === null ? '' : `&window=${label}`;
  const socket = new WebSocket(`ws://127.0.0.1:${port}/ws?token=${served.token}${query}`);
  let state: { window: { label: string } } | undefined;
  const replies = new Map<number, (reply: unknown) => void>();
  const first = new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.on('message', (data: Buffer) => {
      const message = JSON.parse(data.toString()) as { type: string; id?: number; state?: typeof state };
      if (message.type === 'reply') replies.get(message.id!)?.(message);
      if (message.type === 'state') {
        state = message.state;
        resolve();
      }
    });
  });
  await first;
  let id = 0;
  return {
    state: () => state!,
    request: (method, params) =>
      new Promise((resolve) => {
        replies.set(++id, resolve);
        socket.send(JSON.stringify({ id, method, params }));
      }),
    close: () => socket.close(),
  };
}
