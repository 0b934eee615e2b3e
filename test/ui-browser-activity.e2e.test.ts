import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, TempDirs } from './support/cli.js';
import { type BrowserEditor, startBrowserEditor } from './support/browser-editor.js';
import type { EditorSession } from './support/ui.js';

/*
 * A browser tab's Activity drawer as the person sees it (issue 17 item 5, ADR 53, ADR 57): `vmark
 * serve` in Debian Chromium, a real MCP client of the same host opening a tab on a page served on
 * 127.0.0.1 and clicking there, allowed once then denied in the editor's dialog. The drawer lists
 * what the AI did newest first, each entry under its kind, follows new entries while open, and
 * shows the picture taken at the time, decoded by the editor page.
 */

const temp = new TempDirs();
let editor: BrowserEditor | undefined;
let origin: string;
let session: EditorSession;

beforeAll(async () => {
  editor = await startBrowserEditor(
    temp,
    `<!doctype html><title>Counter</title><button id="add">Add</button><p id="log">count 0</p>
<script>let n = 0; add.onclick = () => { log.textContent = 'count ' + ++n; };</script>`,
  );
  ({ session, origin } = editor);
}, 60_000);

afterAll(async () => {
  await editor?.close();
  await temp.cleanup();
});

const clickAdd = (tabId: string) =>
  call(session.client, 'browser', { action: 'act', tabId, operation: 'click', role: 'button', name: 'Add' });

/** The drawer's entries as listed, top to bottom: kind, its label, what was done, what followed. */
const listed = () =>
  session.page
    .locator('.bt-activity li')
    .evaluateAll((items) =>
      items.map((item) => [
        (item as HTMLElement).dataset.kind,
        item.querySelector('.bt-kind')?.textContent,
        item.querySelector('.bt-what')?.textContent,
        item.querySelector('.bt-outcome')?.textContent,
      ]),
    );

describe("a browser tab's Activity drawer", () => {
  it('lists what the AI did newest first, with its kinds, and shows the picture of an entry', async () => {
    const { page } = session;
    const opened = await call(session.client, 'browser', { action: 'open', url: `${origin}/` });
    expect(opened.isError, opened.text).toBe(false);
    const tabId = opened.data.tabId as string;
    await page.locator(`.tab.is-provided[data-tab-id="${tabId}"]`).click();
    await page.locator('.browser-tab-view .bt-title', { hasText: 'Counter' }).waitFor();

    const dialog = page.locator('dialog.approval-dialog[open]');
    const allowed = clickAdd(tabId);
    await dialog.waitFor();
    await dialog.locator('[data-answer=allow]').click();
    expect((await allowed).isError).toBe(false);
    await dialog.waitFor({ state: 'detached' });

    // Closed until the person opens it.
    const drawer = page.locator('.browser-tab-view .bt-activity');
    expect(await drawer.isHidden()).toBe(true);
    const toggle = page.getByRole('button', { name: 'Activity' });
    await toggle.click();
    await drawer.waitFor();
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    await expect.poll(listed).toEqual([
      ['act', 'Acted', 'click button “Add”', 'dom-changed'],
      ['approval', 'Approval', 'click button “Add”', 'allowed once'],
      ['navigation', 'Navigated', `open ${origin}/`, 'HTTP 200'],
    ]);

    // Open, it follows: a denied click comes in at the top, its answer and the refusal.
    const denied = clickAdd(tabId);
    await dialog.waitFor();
    await dialog.locator('[data-answer=deny]').click();
    expect((await denied).text).toMatch(/^the user declined 'click'/);
    await expect.poll(listed).toEqual([
      ['refusal', 'Refused', 'click button “Add”', 'approval denied'],
      ['approval', 'Approval', 'click button “Add”', 'denied'],
      ['act', 'Acted', 'click button “Add”', 'dom-changed'],
      ['approval', 'Approval', 'click button “Add”', 'allowed once'],
      ['navigation', 'Navigated', `open ${origin}/`, 'HTTP 200'],
    ]);
    expect(await page.locator('.browser-tab-view').getAttribute('data-activity')).toBe('5');

    // The act's picture, taken just after it: a JPEG the editor page decodes and draws.
    const act = page.locator('.bt-activity li[data-kind="act"]');
    await page.locator('.bt-activity li[data-kind="act"][data-picture="ready"]').waitFor();
    const entryId = await act.getAttribute('data-entry');
    await act.locator('button').click();
    const shown = page.locator(`.bt-activity img[data-entry="${entryId}"]`);
    await shown.waitFor();
    expect(await shown.getAttribute('src')).toMatch(/^data:image\/jpeg;base64,/);
    await expect
      .poll(() => shown.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
      .toBeGreaterThan(0);

    await toggle.click();
    await drawer.waitFor({ state: 'hidden' });
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
  });
});
