import type { ServerResponse } from 'node:http';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, TempDirs } from './support/cli.js';
import { type BrowserEditor, startBrowserEditor } from './support/browser-editor.js';
import type { EditorSession } from './support/ui.js';

/*
 * Issue 17's "Checked by" in the editor page, with a real AI client (ADR 52, 56): `vmark serve`
 * in Debian Chromium and an MCP client of the same host. The person opens a tab of their own from
 * the Browser panel with no browser tab open; its icon shows in the strip; the AI's reads of it
 * ask, once or until navigation; the AI may not close it, the person may, from the strip. A
 * person typing into an AI tab's view during a workflow run pauses the run and refuses the AI's
 * next act until they hand it back.
 */

/** A PNG of one pixel, as browsers decode it. */
const ICON = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

const PAGE = `<!doctype html><title>Shop</title><link rel="icon" href="/shop.png">
<style>body{margin:0;font:20px sans-serif} #add{position:absolute;left:40px;top:40px;width:200px;height:60px}
#log{position:absolute;left:40px;top:140px}</style>
<button id="add">Add</button><p id="log">count 0</p>
<script>let n = 0; document.getElementById('add').onclick = () => {
  document.getElementById('log').textContent = 'count ' + ++n; };</script>`;

const temp = new TempDirs();
let editor: BrowserEditor | undefined;
let origin: string;
let session: EditorSession;
/** The answers `/slow` keeps waiting until the test lets them go. */
const held: ServerResponse[] = [];
const release = () => {
  for (const res of held.splice(0)) {
    res.setHeader('content-type', 'text/html');
    res.end(PAGE);
  }
};

beforeAll(async () => {
  editor = await startBrowserEditor(temp, PAGE, {
    '/shop.png': (_req, res) => {
      res.setHeader('content-type', 'image/png');
      res.end(ICON);
    },
    '/slow': (_req, res) => void held.push(res),
  });
  ({ session, origin } = editor);
}, 60_000);

afterAll(async () => {
  release();
  await editor?.close();
  await temp.cleanup();
});

const dialog = (page: Page) => page.locator('dialog.approval-dialog[open]');
const read = (tabId: string) => call(session.client, 'browser_read', { action: 'read', tabId });
const clickAdd = (tabId: string) =>
  call(session.client, 'browser', { action: 'act', tabId, operation: 'click', role: 'button', name: 'Add' });

/** The browser tabs the AI sees in `session.get_state`. */
async function listedTabs(): Promise<{ id: string; automationMode: string; attached?: boolean }[]> {
  const state = (await call(session.client, 'session', { action: 'get_state' })).data as {
    windows: { tabs: { id: string; kind: string; automationMode: string; attached?: boolean }[] }[];
  };
  return state.windows.flatMap((w) => w.tabs).filter((t) => t.kind === 'browser');
}

let humanTab: string;

describe("a person's own tab in the editor, and the AI", () => {
  it('opens from the Browser panel with no browser tab open, its icon in the strip', async () => {
    const { page } = session;
    expect(await page.locator('.tab.is-provided').count()).toBe(0);
    await page.locator('.tool-button[data-plugin-panel="browser/new-tab"]').click();
    await page.getByRole('textbox', { name: 'Address of a new browser tab' }).fill(`${origin}/`);
    await page.getByRole('button', { name: 'New browser tab' }).click();
    const tab = page.locator('.tab.is-provided');
    await tab.waitFor();
    humanTab = (await tab.getAttribute('data-tab-id'))!;
    expect(await tab.locator('.tab-badge').textContent()).toBe('Human');
    // The page's own icon, fetched by the page and handed to the strip as a data: picture it draws.
    const icon = tab.locator('img.tab-icon');
    await icon.waitFor();
    expect(await icon.getAttribute('src')).toBe(`data:image/png;base64,${ICON.toString('base64')}`);
    await expect
      .poll(() => icon.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
      .toBe(1);
    expect(await listedTabs()).toEqual([expect.objectContaining({ id: humanTab, automationMode: 'human' })]);
    // Loaded before the AI asks: a page that navigates while the person is asked spends the answer.
    await tab.click();
    await page
      .locator('.browser-tab-view[data-loading="false"] .bt-driver', { hasText: 'Your tab' })
      .waitFor();
    // The person drives their own tab, and there is nothing to hand back.
    expect(await page.locator('.browser-tab-view').getAttribute('data-driver')).toBe('human');
    expect(await page.locator('.bt-hand-back').isHidden()).toBe(true);
  });

  it('asks for each read under "Allow once"; wait_for urlContains then answers ATTACHMENT_ONCE_INSUFFICIENT', async () => {
    const { page } = session;
    for (let i = 0; i < 2; i++) {
      const reading = read(humanTab);
      await dialog(page).waitFor();
      expect(await dialog(page).locator('.modal-title').textContent()).toBe('Let the AI use your tab');
      await dialog(page).locator('[data-answer=allow]').click();
      const seen = await reading;
      expect(seen.isError, seen.text).toBe(false);
      expect(JSON.stringify(seen.data)).toContain('Add');
      await dialog(page).waitFor({ state: 'detached' });
    }
    const waiting = call(session.client, 'browser_read', {
      action: 'wait_for',
      tabId: humanTab,
      urlContains: '/',
    });
    await dialog(page).waitFor();
    await dialog(page).locator('[data-answer=allow]').click();
    const waited = await waiting;
    expect(waited.isError).toBe(true);
    expect(waited.text).toMatch(/^ATTACHMENT_ONCE_INSUFFICIENT: /);
    await dialog(page).waitFor({ state: 'detached' });
    // Left unspent: the next read is covered by it and asks nobody.
    const kept = await read(humanTab);
    expect(kept.isError, kept.text).toBe(false);
    expect(await dialog(page).count()).toBe(0);
  });

  it('reads under "Allow until navigation" until the person navigates, then asks again', async () => {
    const { page } = session;
    const first = read(humanTab);
    await dialog(page).waitFor();
    await dialog(page).locator('[data-answer=allow-until-navigation]').click();
    expect((await first).isError).toBe(false);
    // The answered dialog goes on its own time: under load it can still be open as the reads end.
    await dialog(page).waitFor({ state: 'detached' });
    for (let i = 0; i < 2; i++) expect((await read(humanTab)).isError).toBe(false);
    expect(await dialog(page).count()).toBe(0);

    // The person goes to another page from the view's address bar.
    await page.locator('.bt-address input').fill(`${origin}/next`);
    await page.locator('.bt-address input').press('Enter');
    await expect.poll(async () => (await listedTabs())[0]?.attached).toBe(false);
    await page.locator('.browser-tab-view[data-loading="false"]').waitFor();
    const again = read(humanTab);
    await dialog(page).waitFor();
    await dialog(page).locator('[data-answer=deny]').click();
    expect((await again).text).toMatch(/^the user declined 'attach'/);
    await dialog(page).waitFor({ state: 'detached' });
  });

  it('may not be closed by the AI, and is closed by the person from the strip', async () => {
    const { page } = session;
    const refused = await call(session.client, 'browser', { action: 'close', tabId: humanTab });
    expect(refused.text).toMatch(/^TAB_NOT_AI_OWNED: /);
    expect(await dialog(page).count()).toBe(0);
    const tab = page.locator(`.tab.is-provided[data-tab-id="${humanTab}"]`);
    await tab.locator('.tab-close').click();
    await tab.waitFor({ state: 'detached' });
    expect(await listedTabs()).toEqual([]);
    await page.locator('.browser-tab-view').waitFor({ state: 'detached' });
  });
});

describe("an AI tab's workflow run and the person", () => {
  it('pauses when the person types into the view, refuses the AI until they hand it back, and closes from the strip', async () => {
    const { page } = session;
    const opened = await call(session.client, 'browser', { action: 'open', url: `${origin}/` });
    expect(opened.isError, opened.text).toBe(false);
    const tabId = opened.data.tabId as string;
    const source = `---\nsite: shop\n---\n1. action: navigate to ${origin}/slow\n`;
    const started = await call(session.client, 'browser', { action: 'workflow_run', tabId, source });
    expect(started.isError, started.text).toBe(false);
    const { runId } = started.data as { runId: string };
    const status = async () =>
      (await call(session.client, 'browser_read', { action: 'workflow_status', runId })).data as {
        status: string;
        reasonCode?: string;
      };
    // The run is on its way to a page that keeps it waiting.
    await expect.poll(() => held.length).toBe(1);
    expect((await status()).status).toBe('running');

    // The person types into the tab's view.
    const strip = page.locator(`.tab.is-provided[data-tab-id="${tabId}"]`);
    await strip.click();
    await page.locator('.bt-picture').focus();
    await page.keyboard.type('hi');
    await page.locator('.browser-tab-view[data-driver="human"]').waitFor();
    expect(await status()).toMatchObject({ status: 'paused', reasonCode: 'lease-lost' });
    release();
    const refused = await clickAdd(tabId);
    expect(refused.text.split('\n')[0]).toBe('LEASE_LOST: the human is currently driving this tab');

    // Handed back: the AI acts again (the click asks the person, as every first click on a site).
    await page.locator('.bt-hand-back').click();
    await page.locator('.browser-tab-view[data-driver="ai"]').waitFor();
    // The page the run was held on has loaded since (released above) and shows its button.
    const loaded = await call(session.client, 'browser_read', {
      action: 'wait_for',
      tabId,
      role: 'button',
      name: 'Add',
      timeoutMs: 9000,
    });
    expect(loaded.data, loaded.text).toMatchObject({ matched: true });
    const clicking = clickAdd(tabId);
    await dialog(page).waitFor();
    await dialog(page).locator('[data-answer=allow]').click();
    const clicked = await clicking;
    expect(clicked.isError, clicked.text).toBe(false);

    // The person closes the AI's tab from the strip: gone for the AI too.
    await strip.locator('.tab-close').click();
    await strip.waitFor({ state: 'detached' });
    expect(await listedTabs()).toEqual([]);
    expect((await read(tabId)).text).toMatch(/^TAB_CLOSED: /);
  });
});
