import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, runCli, TempDirs } from './support/cli.js';
import { type BrowserEditor, startBrowserEditor } from './support/browser-editor.js';
import type { EditorSession } from './support/ui.js';

/*
 * Standing grants in the editor as a person sees them: `vmark serve` in Debian Chromium, an AI
 * client of the same host over MCP asking to style a page on 127.0.0.1 or to click on it, the
 * approval dialog's "Allow on this site", and Settings' "Standing grants" list, by site, with its
 * Revoke buttons for a grant and for all of a site's.
 */

const temp = new TempDirs();
let editor: BrowserEditor | undefined;
let origin: string;
let session: EditorSession;

beforeAll(async () => {
  editor = await startBrowserEditor(temp, '<!doctype html><title>Shop</title><button id="go">Go</button>');
  ({ session, origin } = editor);
}, 60_000);

afterAll(async () => {
  await editor?.close();
  await temp.cleanup();
});

const clickGo = (tabId: string) =>
  call(session.client, 'browser', { action: 'act', tabId, operation: 'click', role: 'button', name: 'Go' });

const style = (addClasses: string[]) =>
  call(session.client, 'browser', { action: 'style', selector: '#go', addClasses });

describe('standing grants in the editor', () => {
  it('are given in the dialog, listed in Settings, and revoked there for the next call', async () => {
    const { page, home } = session;
    expect((await call(session.client, 'browser', { action: 'open', url: `${origin}/` })).isError).toBe(
      false,
    );

    // The dialog offers "Allow on this site" for a style change; the call waits for the answer.
    const first = style(['a']);
    const dialog = page.locator('dialog.approval-dialog[open]');
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain('add the classes a');
    await dialog.locator('[data-answer=allow-site]').click();
    expect((await first).isError).toBe(false);
    // Standing: the next change on the site is not asked.
    expect((await style(['b'])).isError).toBe(false);

    await page.click('.tool-button[data-action=settings]');
    await page.locator('dialog.settings-panel[open]').waitFor();
    const rows = page.locator('.settings-grants .grant-row');
    await rows.first().waitFor();
    expect(await rows.count()).toBe(1);
    expect(await page.locator('.settings-grants .grant-site-origin').allTextContents()).toEqual([origin]);
    expect(await rows.first().locator('.setting-title').textContent()).toBe('style');
    expect(await rows.first().locator('.grant-holder').textContent()).toMatch(
      /^held by “vmark-e2e-ui” \(conn-\d+\)$/,
    );
    const id = await rows.first().getAttribute('data-grant-id');
    const listed = JSON.parse((await runCli(['approvals', 'grants', '--json'], { VMARK_HOME: home })).stdout);
    expect(listed).toEqual([expect.objectContaining({ id, operation: 'style', origin, grantedBy: 'ui' })]);

    await rows.first().locator('.grant-revoke').click();
    await page.locator('.settings-grants .settings-empty').waitFor();
    expect(await page.locator('.settings-grants').textContent()).toContain('No standing grants.');
    expect((await runCli(['approvals', 'grants'], { VMARK_HOME: home })).stdout).toBe('no standing grants\n');
    await page.keyboard.press('Escape');
    await page.locator('dialog.settings-panel[open]').waitFor({ state: 'detached' });

    // The next call is asked again: deny it in the dialog.
    const third = style(['c']);
    await dialog.waitFor();
    await dialog.locator('[data-answer=deny]').click();
    expect((await third).text).toMatch(/^the user declined 'style'/);
  });

  it('follows a grant revoked from a terminal while Settings is open', async () => {
    const { page, home } = session;
    const given = style(['d']);
    const dialog = page.locator('dialog.approval-dialog[open]');
    await dialog.waitFor();
    await dialog.locator('[data-answer=allow-site]').click();
    expect((await given).isError).toBe(false);
    await page.click('.tool-button[data-action=settings]');
    await page.locator('.settings-grants .grant-row').waitFor();
    expect((await runCli(['approvals', 'revoke', '--origin', origin], { VMARK_HOME: home })).code).toBe(0);
    await page.locator('.settings-grants .grant-row').waitFor({ state: 'detached' });
    await page.keyboard.press('Escape');
    await page.locator('dialog.settings-panel[open]').waitFor({ state: 'detached' });
  });

  it('asks again for a click once its grant is revoked in Settings', async () => {
    const { page } = session;
    const opened = await call(session.client, 'browser', { action: 'open', url: `${origin}/` });
    expect(opened.isError, opened.text).toBe(false);
    const tabId = opened.data.tabId as string;
    const dialog = page.locator('dialog.approval-dialog[open]');

    const first = clickGo(tabId);
    await dialog.waitFor();
    expect(await dialog.locator('.modal-title').textContent()).toBe('Click on a web page');
    await dialog.locator('[data-answer=allow-site]').click();
    expect((await first).isError).toBe(false);
    await dialog.waitFor({ state: 'detached' });
    // Standing: the next click on the site is not asked.
    const second = await clickGo(tabId);
    expect(second.isError, second.text).toBe(false);
    expect(await page.locator('dialog.approval-dialog[open]').count()).toBe(0);

    await page.click('.tool-button[data-action=settings]');
    await page.locator('dialog.settings-panel[open]').waitFor();
    const rows = page.locator('.settings-grants .grant-row');
    await rows.first().waitFor();
    expect(await rows.locator('.setting-title').allTextContents()).toEqual(['click']);
    await rows.first().locator('.grant-revoke').click();
    await page.locator('.settings-grants .settings-empty').waitFor();
    await page.keyboard.press('Escape');
    await page.locator('dialog.settings-panel[open]').waitFor({ state: 'detached' });

    // Revoked: the next click asks again, and waits for the answer.
    const third = clickGo(tabId);
    await dialog.waitFor();
    expect(await dialog.locator('.modal-title').textContent()).toBe('Click on a web page');
    expect(await dialog.locator('.approval-subject').first().textContent()).toMatch(
      /^click button “Go” — on /,
    );
    await dialog.locator('[data-answer=deny]').click();
    expect((await third).text).toMatch(/^the user declined 'click'/);
  });

  it("lists the grants by site, and revokes one site's together or one grant alone", async () => {
    const { page, home } = session;
    // The same page under a second origin: localhost is not 127.0.0.1 to a browser.
    const elsewhere = origin.replace('127.0.0.1', 'localhost');
    const opened = await call(session.client, 'browser', { action: 'open', url: `${origin}/` });
    expect(opened.isError, opened.text).toBe(false);
    const tabId = opened.data.tabId as string;
    const dialog = page.locator('dialog.approval-dialog[open]');
    const allowOnSite = async (asking: Promise<{ isError: boolean; text: string }>) => {
      await dialog.waitFor();
      await dialog.locator('[data-answer=allow-site]').click();
      const answered = await asking;
      expect(answered.isError, answered.text).toBe(false);
      await dialog.waitFor({ state: 'detached' });
    };
    await allowOnSite(clickGo(tabId));
    await allowOnSite(style(['e']));
    const went = await call(session.client, 'browser', { action: 'navigate', tabId, url: `${elsewhere}/` });
    expect(went.isError, went.text).toBe(false);
    await allowOnSite(style(['f']));

    await page.click('.tool-button[data-action=settings]');
    await page.locator('dialog.settings-panel[open]').waitFor();
    const sites = page.locator('.settings-grants .grant-site');
    await sites.nth(1).waitFor();
    const listed = () =>
      sites.evaluateAll((groups) =>
        groups.map((group) => [
          group.querySelector('.grant-site-origin')?.textContent,
          [...group.querySelectorAll('.grant-row .setting-title')].map((title) => title.textContent),
        ]),
      );
    expect(await listed()).toEqual([
      [origin, ['click', 'style']],
      [elsewhere, ['style']],
    ]);

    // One site's grants go together; the other site's stay.
    await page.locator(`.grant-site[data-origin="${origin}"] .grant-revoke-site`).click();
    await page.locator(`.grant-site[data-origin="${origin}"]`).waitFor({ state: 'detached' });
    expect(await listed()).toEqual([[elsewhere, ['style']]]);
    const held = JSON.parse((await runCli(['approvals', 'grants', '--json'], { VMARK_HOME: home })).stdout);
    expect(held).toEqual([expect.objectContaining({ operation: 'style', origin: elsewhere })]);

    // A single grant goes alone: the last one, and the list is empty.
    await sites.first().locator('.grant-revoke').click();
    await page.locator('.settings-grants .settings-empty').waitFor();
    await page.keyboard.press('Escape');
    await page.locator('dialog.settings-panel[open]').waitFor({ state: 'detached' });

    // Both asks again: the grant revoked alone, and the site's revoked together.
    const restyled = style(['g']);
    await dialog.waitFor();
    await dialog.locator('[data-answer=deny]').click();
    expect((await restyled).text).toMatch(/^the user declined 'style'/);
    await dialog.waitFor({ state: 'detached' });
    const back = await call(session.client, 'browser', { action: 'navigate', tabId, url: `${origin}/` });
    expect(back.isError, back.text).toBe(false);
    const clicked = clickGo(tabId);
    await dialog.waitFor();
    await dialog.locator('[data-answer=deny]').click();
    expect((await clicked).text).toMatch(/^the user declined 'click'/);
  });
});
