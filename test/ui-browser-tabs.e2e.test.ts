import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, runCli, TempDirs } from './support/cli.js';
import { type BrowserEditor, startBrowserEditor } from './support/browser-editor.js';
import type { EditorSession } from './support/ui.js';

/*
 * The AI's browser tabs in the editor (issue 17 items 1–2, ADR 49): `vmark serve` in Debian
 * Chromium, a real MCP client of the same host opening a tab on a page served on 127.0.0.1. The
 * tab shows in the strip with who drives it; its view is the page's live picture; the person's
 * click and typing there reach the page and take the tab over, so the AI's next act is refused
 * until the person hands it back.
 */

const temp = new TempDirs();
let editor: BrowserEditor | undefined;
let origin: string;
let session: EditorSession;

/** A button and a field at fixed places of the page, so that the test knows where to click. */
const FIXTURE = `<!doctype html><title>Counter</title>
<style>body{margin:0;font:20px sans-serif} #add{position:absolute;left:40px;top:40px;width:200px;height:60px}
#name{position:absolute;left:40px;top:140px;width:300px;height:40px;font-size:20px} #log{position:absolute;left:40px;top:220px} #echo{position:absolute;left:40px;top:260px}</style>
<button id="add">Add</button><input id="name" aria-label="Name"><p id="log">count 0</p><p id="echo"></p>
<script>let n = 0; const $ = (id) => document.getElementById(id);
$('add').onclick = () => { $('log').textContent = 'count ' + ++n; };
$('name').oninput = () => { $('echo').textContent = 'typed ' + $('name').value; };</script>`;

beforeAll(async () => {
  editor = await startBrowserEditor(temp, FIXTURE);
  ({ session, origin } = editor);
}, 60_000);

afterAll(async () => {
  await editor?.close();
  await temp.cleanup();
});

const frames = async (page: Page) =>
  Number(await page.locator('.browser-tab-view').getAttribute('data-frames'));

/** Waits until the view has shown more than `count` frames. */
const moreFramesThan = (page: Page, count: number) =>
  page.waitForFunction(
    (n) => Number(document.querySelector('.browser-tab-view')?.getAttribute('data-frames') ?? 0) > n,
    count,
  );

/** Where a point of the AI's page (CSS pixels) is on the editor's screen, through the scaled picture. */
async function onPicture(page: Page, x: number, y: number): Promise<{ x: number; y: number }> {
  const viewport = await page.locator('.browser-tab-view').getAttribute('data-viewport');
  const [width, height] = viewport!.split('x').map(Number) as [number, number];
  const box = (await page.locator('.bt-picture').boundingBox())!;
  const scale = Math.min(box.width / width, box.height / height);
  return {
    x: box.x + (box.width - width * scale) / 2 + x * scale,
    y: box.y + (box.height - height * scale) / 2 + y * scale,
  };
}

async function logText(tabId: string, selector = '#log'): Promise<string> {
  const out = await call(session.client, 'browser_read', { action: 'query', tabId, selector });
  return (out.data as { elements: { text: string }[] }).elements[0]?.text ?? '';
}

const clickAdd = (tabId: string) =>
  call(session.client, 'browser', { action: 'act', tabId, operation: 'click', role: 'button', name: 'Add' });

describe('browser tabs in the editor', () => {
  it('shows the AI tab live, lets the person drive it, and refuses the AI until they hand it back', async () => {
    const { page } = session;
    const opened = await call(session.client, 'browser', { action: 'open', url: `${origin}/` });
    expect(opened.isError, opened.text).toBe(false);
    const tabId = opened.data.tabId as string;

    // The strip: the tab, its title and who drives it.
    const strip = page.locator(`.tab.is-provided[data-tab-id="${tabId}"]`);
    await strip.locator('.tab-title', { hasText: 'Counter' }).waitFor();
    expect(await strip.locator('.tab-badge').textContent()).toBe('AI sandbox');

    // Its view: the live picture, which follows what the AI does to the page.
    await strip.click();
    await moreFramesThan(page, 0);
    expect(await page.locator('.bt-title').textContent()).toBe('Counter');
    expect(await page.locator('.bt-address input').inputValue()).toBe(`${origin}/`);
    const before = await frames(page);
    const shown = await page.locator('.bt-picture').getAttribute('src');
    // The person allows clicks on the site once, in the dialog; the AI's later clicks are not asked.
    const first = clickAdd(tabId);
    const dialog = page.locator('dialog.approval-dialog[open]');
    await dialog.waitFor();
    await dialog.locator('[data-answer=allow-site]').click();
    expect((await first).isError).toBe(false);
    await moreFramesThan(page, before);
    // A frame of the unchanged page may come first (a screenshot, the act's scroll into view redraw
    // it as it was): the picture is to show the change soon, not in the very next frame.
    await expect.poll(() => page.locator('.bt-picture').getAttribute('src')).not.toBe(shown);
    expect(await logText(tabId)).toBe('count 1');

    // The person clicks the button in the picture: the page reacts, and the tab is theirs.
    const add = await onPicture(page, 140, 70);
    await page.mouse.click(add.x, add.y);
    await expect.poll(() => logText(tabId)).toBe('count 2');
    await page.locator('.browser-tab-view[data-driver="human"]').waitFor();
    await strip.locator('.tab-badge', { hasText: 'Human' }).waitFor();

    // They type into the field: the keys reach the page.
    const field = await onPicture(page, 190, 160);
    await page.mouse.click(field.x, field.y);
    await page.keyboard.type('Ada');
    await expect.poll(() => logText(tabId, '#echo')).toBe('typed Ada');

    // The AI's next act is refused, in the notes' words, and does nothing.
    const refused = await clickAdd(tabId);
    expect(refused.isError).toBe(true);
    expect(refused.text.split('\n')[0]).toBe('LEASE_LOST: the human is currently driving this tab');
    expect(refused.data).toMatchObject({ error: 'LEASE_LOST', tabId });
    const navigate = await call(session.client, 'browser', { action: 'navigate', tabId, url: `${origin}/b` });
    expect(navigate.text.split('\n')[0]).toBe('LEASE_LOST: the human is currently driving this tab');
    expect(await logText(tabId)).toBe('count 2');

    // Handed back: the AI acts again.
    await page.locator('.bt-hand-back').click();
    await page.locator('.browser-tab-view[data-driver="ai"]').waitFor();
    await strip.locator('.tab-badge', { hasText: 'AI sandbox' }).waitFor();
    expect((await clickAdd(tabId)).isError).toBe(false);
    expect(await logText(tabId)).toBe('count 3');
  });

  it("is the browser plugin's contribution: turned off, its tabs, their view and its Browser panel go", async () => {
    const { page, home } = session;
    await page.locator('.tab.is-provided').first().waitFor();
    const newTab = page.locator('.tool-button[data-plugin-panel="browser/new-tab"]');
    await newTab.waitFor();
    const off = await runCli(['plugins', 'disable', 'browser'], { VMARK_HOME: home });
    expect(off.code, off.stderr).toBe(0);
    await page.locator('.tab.is-provided').waitFor({ state: 'detached' });
    await page.locator('.browser-tab-view').waitFor({ state: 'detached' });
    await newTab.waitFor({ state: 'detached' });
  });
});
