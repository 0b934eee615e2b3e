import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, runCli, TempDirs } from './support/cli.js';
import { type BrowserEditor, startBrowserEditor } from './support/browser-editor.js';
import type { EditorSession } from './support/ui.js';

/*
 * What a browser approval shows the person: `vmark serve` in Debian Chromium, an AI client of
 * the same host over MCP clicking a button on a page on 127.0.0.1 — the dialog shows a picture
 * of the button as the page shows it — and running a script, shown whole and as text; and the
 * attachment of a person's own tab, offered once or until navigation and never "on this site".
 */

const temp = new TempDirs();
let editor: BrowserEditor | undefined;
let origin: string;
let session: EditorSession;
let tabId: string;

beforeAll(async () => {
  editor = await startBrowserEditor(
    temp,
    '<!doctype html><title>Shop</title><main style="padding:80px"><button id="pay">Pay now</button></main>',
  );
  ({ session, origin } = editor);
}, 60_000);

afterAll(async () => {
  await editor?.close();
  await temp.cleanup();
});

describe('a browser approval dialog', () => {
  it('shows a crop of the page around the element a click would press', async () => {
    const { page, home } = session;
    const opened = await call(session.client, 'browser', { action: 'open', url: `${origin}/` });
    expect(opened.isError, opened.text).toBe(false);
    ({ tabId } = opened.data as { tabId: string });

    const clicked = call(session.client, 'browser', {
      action: 'act',
      tabId,
      operation: 'click',
      role: 'button',
      name: 'Pay now',
    });
    const dialog = page.locator('dialog.approval-dialog[open]');
    await dialog.waitFor();
    expect(await dialog.locator('.modal-title').textContent()).toBe('Click on a web page');
    expect(await dialog.locator('.approval-subject').first().textContent()).toMatch(
      /^click button “Pay now” — on /,
    );
    const image = dialog.locator('img.approval-image');
    expect(await image.getAttribute('src')).toMatch(/^data:image\/png;base64,/);
    // Decoded and drawn by the editor page (its CSP allows data: images), not a broken image.
    await expect
      .poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
      .toBeGreaterThan(40);
    // The picture is for the dialog only: not in `vmark approvals list`.
    const listed = await runCli(['approvals', 'list', '--json'], { VMARK_HOME: home });
    expect(listed.stdout).not.toContain('base64');
    await dialog.locator('[data-answer=allow]').click();
    expect((await clicked).isError).toBe(false);
  });

  it('shows a script whole, as text, and no picture', async () => {
    const { page } = session;
    const script = 'const note = "<img src=x onerror=alert(1)>";\n\nreturn note.length;';
    const ran = call(session.client, 'browser', { action: 'execute_js', tabId, script });
    const dialog = page.locator('dialog.approval-dialog[open]');
    await dialog.waitFor();
    expect(await dialog.locator('.modal-title').textContent()).toBe('Run a script in a web page');
    expect(await dialog.locator('.approval-subject').first().textContent()).toContain(script);
    expect(await dialog.locator('.approval-subject img, img.approval-image').count()).toBe(0);
    await dialog.locator('[data-answer=deny]').click();
    expect((await ran).text).toMatch(/^the user declined 'eval'/);
  });

  it("offers an attachment of the person's own tab once or until navigation, never on this site", async () => {
    const { page } = session;
    await page.locator(`.tab.is-provided[data-tab-id="${tabId}"]`).click();
    await page.locator('.bt-address input').fill(`${origin}/`);
    await page.getByRole('button', { name: 'Open the address in a new tab of your own' }).click();
    const own = page.locator(`.tab.is-provided:not([data-tab-id="${tabId}"])`);
    await own.waitFor();
    const humanTab = (await own.getAttribute('data-tab-id'))!;
    // Loaded before the AI asks: a page that navigates while the person is asked spends the answer (STALE_COMMAND).
    await own.click();
    await page
      .locator('.browser-tab-view[data-loading="false"] .bt-driver', { hasText: 'Your tab' })
      .waitFor();
    const read = () => call(session.client, 'browser_read', { action: 'read', tabId: humanTab });
    const first = read();
    const dialog = page.locator('dialog.approval-dialog[open]');
    await dialog.waitFor();
    expect(await dialog.locator('.modal-title').textContent()).toBe('Let the AI use your tab');
    expect(
      await dialog.locator('[data-answer]').evaluateAll((buttons) => buttons.map((b) => b.textContent)),
    ).toEqual(['Allow until navigation', 'Deny', 'Allow once']);
    await dialog.locator('[data-answer=allow-until-navigation]').click();
    const firstRead = await first;
    expect(firstRead.isError, firstRead.text).toBe(false);
    // The answered dialog goes on its own time; a later one would be a new question.
    await dialog.waitFor({ state: 'detached' });
    // Until the page navigates, later reads of this client ask nobody.
    const second = await read();
    expect(second.isError, second.text).toBe(false);
    expect(await page.locator('dialog.approval-dialog[open]').count()).toBe(0);
  });
});
