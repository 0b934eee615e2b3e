import { readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { call, runCli, TempDirs } from './support/cli.js';
import { sharedChromium, startEditorSession, type EditorSession } from './support/ui.js';

/*
 * The settings panel as a person uses it: `vmark serve` in Debian Chromium, and
 * an AI client of the same host over MCP, whose next call sees the change.
 */

const temp = new TempDirs();
let browser: Browser;
let session: EditorSession | undefined;
let home: string;
let vault: string;
let page: Page;
let client: Client;

beforeAll(async () => {
  browser = await sharedChromium();
});
afterAll(async () => {
  await temp.cleanup();
});

beforeEach(async () => {
  ({ vault, page, client, home } = session = await startEditorSession(
    temp,
    browser,
    { 'Welcome.md': '# Welcome\n' },
    'Welcome.md',
  ));
});
afterEach(async () => {
  await session?.close();
});

const settingsFile = () => path.join(home, 'settings.json');
const onDisk = async () => JSON.parse(await readFile(settingsFile(), 'utf8')) as Record<string, unknown>;
const row = (key: string): Locator => page.locator(`.setting-row[data-setting-key="${key}"]`);

async function openSettings(): Promise<void> {
  await page.click('.tool-button[data-action=settings]');
  await page.locator('dialog.settings-panel[open]').waitFor();
}

/** Flips a switch and waits for the host's answer (the panel shows it again, enabled and as asked). */
async function flip(key: string, on: boolean): Promise<void> {
  await row(key).locator('input[role=switch]').click();
  await row(key)
    .locator(`input[role=switch]:not(:disabled)${on ? ':checked' : ':not(:checked)'}`)
    .waitFor();
  await row(key).locator('.setting-reset').waitFor();
}

const saveAs = (filePath: string) => call(client, 'workspace', { action: 'save_as', filePath });

describe('settings panel', () => {
  it('lists the settings by owner, each with its default, and explains what auto-approve gives away', async () => {
    await openSettings();
    const groups = await page.locator('.settings-group-title').allTextContents();
    // Each setting shows with the plugin that reads it: the browser's with the browser plugin; the
    // editor page's own (ADR 72) first.
    expect(groups).toEqual(['Editor', 'Browser', 'Documents', 'GitHub Actions workflows']);
    expect(await row('browser.allowPrivateNetwork').locator('.setting-caution').textContent()).toContain(
      'not meant to be public',
    );
    expect(await row('advanced.workflowActionlint').locator('.setting-meta').textContent()).toContain(
      'Default: on',
    );
    const autoApprove = row('integrations.autoApproveEdits');
    expect(await autoApprove.locator('.setting-title').textContent()).toBe('Auto-approve edits');
    expect(await autoApprove.locator('.setting-caution').textContent()).toContain('removes an approval');
    expect(await row('cjkFormatting.quoteStyle').locator('select').inputValue()).toBe('curly');
    expect(await row('cjkFormatting.consecutivePunctuationLimit').locator('input').inputValue()).toBe('0');
    expect(await row('advanced.workflowActionlint').locator('input[role=switch]').isChecked()).toBe(true);
  });

  it('"Auto-approve edits" lets save_as write to a new location, and refuses again once it is off', async () => {
    const first = path.join(vault, 'copy.md');
    expect((await saveAs(first)).data).toMatchObject({ error: 'APPROVAL_REQUIRED' });
    await expect(stat(first)).rejects.toThrow();

    await openSettings();
    await flip('integrations.autoApproveEdits', true);
    expect(await onDisk()).toEqual({ integrations: { autoApproveEdits: true } });
    expect(await row('integrations.autoApproveEdits').getAttribute('class')).toContain('is-cautious');
    // The panel redraws after each answer without taking the focus or the scroll position away.
    expect(
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.settingKey),
    ).toBe('integrations.autoApproveEdits');
    const saved = await saveAs(first);
    expect(saved.isError).toBe(false);
    expect(saved.data).toEqual({ revision: expect.stringMatching(/^rev-/) });
    expect(await readFile(first, 'utf8')).toBe('# Welcome\n');

    await flip('integrations.autoApproveEdits', false);
    expect(await onDisk()).toEqual({ integrations: { autoApproveEdits: false } });
    const second = path.join(vault, 'second.md');
    expect((await saveAs(second)).data).toMatchObject({ error: 'APPROVAL_REQUIRED' });
    await expect(stat(second)).rejects.toThrow();
  });

  it('a CJK option changes what document.transform cjk-format does', async () => {
    const doc = (args: Record<string, unknown>) => call(client, 'document', args);
    const formatted = async (text: string) => {
      await doc({ action: 'write', content: text });
      await doc({ action: 'transform', kind: 'cjk-format' });
      return (await doc({ action: 'read' })).data.content;
    };
    expect(await formatted('学习TypeScript,很好.\n')).toBe('学习 TypeScript，很好。\n');
    expect(await formatted('太棒了！！！\n')).toBe('太棒了！！！\n');

    await openSettings();
    await row('cjkFormatting.cjkEnglishSpacing').scrollIntoViewIfNeeded();
    const scrolled = await page.locator('.settings-body').evaluate((body) => body.scrollTop);
    expect(scrolled).toBeGreaterThan(0);
    await flip('cjkFormatting.cjkEnglishSpacing', false);
    expect(await page.locator('.settings-body').evaluate((body) => body.scrollTop)).toBe(scrolled);
    expect(await formatted('学习TypeScript,很好.\n')).toBe('学习TypeScript，很好。\n');

    const limit = row('cjkFormatting.consecutivePunctuationLimit').locator('input');
    await limit.fill('1');
    await limit.press('Enter');
    await row('cjkFormatting.consecutivePunctuationLimit').locator('.setting-reset').waitFor();
    expect(await formatted('太棒了！！！\n')).toBe('太棒了！\n');
    expect(await onDisk()).toEqual({
      cjkFormatting: { cjkEnglishSpacing: false, consecutivePunctuationLimit: 1 },
    });

    // A value out of bounds is refused with a toast; the file and the field keep the stored value.
    await limit.fill('7');
    await limit.press('Enter');
    await page.locator('.toast', { hasText: '7 is above the maximum 2' }).waitFor();
    await row('cjkFormatting.consecutivePunctuationLimit').locator('input:not(:disabled)').waitFor();
    expect(await limit.inputValue()).toBe('1');
    expect((await onDisk()).cjkFormatting).toEqual({
      cjkEnglishSpacing: false,
      consecutivePunctuationLimit: 1,
    });

    // Reset removes it from the file, so the default applies again.
    await row('cjkFormatting.cjkEnglishSpacing').locator('.setting-reset').click();
    await row('cjkFormatting.cjkEnglishSpacing').locator('.setting-reset').waitFor({ state: 'detached' });
    expect(await formatted('学习TypeScript,很好.\n')).toBe('学习 TypeScript，很好。\n');
  });

  it('keeps keys written by hand, unknown ones included, when it writes', async () => {
    const hand = {
      myOwnNote: { keep: ['this', 1, null] },
      integrations: { someFutureSwitch: 'x' },
      cjkFormatting: { quoteStyle: 'corner' },
    };
    await writeFile(settingsFile(), JSON.stringify(hand, null, 4));
    await openSettings();
    // Read afresh on opening: the hand edit shows.
    expect(await row('cjkFormatting.quoteStyle').locator('select').inputValue()).toBe('corner');
    await flip('advanced.workflowActionlint', false);
    expect(await onDisk()).toEqual({ ...hand, advanced: { workflowActionlint: false } });

    await row('cjkFormatting.quoteStyle').locator('select').selectOption('guillemets');
    await row('cjkFormatting.quoteStyle').locator('select:not(:disabled)').waitFor();
    expect(await onDisk()).toEqual({
      ...hand,
      cjkFormatting: { quoteStyle: 'guillemets' },
      advanced: { workflowActionlint: false },
    });
  });

  it('takes a plugin’s settings away while it is turned off, and brings them back with it', async () => {
    const groups = () => page.locator('.settings-group-title').allTextContents();
    await openSettings();
    await row('advanced.workflowActionlint').waitFor();
    expect((await runCli(['plugins', 'disable', 'workflow'], { VMARK_HOME: home })).code).toBe(0);
    await row('advanced.workflowActionlint').waitFor({ state: 'detached' });
    expect(await groups()).toEqual(['Editor', 'Browser', 'Documents']);
    expect((await runCli(['plugins', 'enable', 'workflow'], { VMARK_HOME: home })).code).toBe(0);
    await row('advanced.workflowActionlint').waitFor();
    expect(await groups()).toEqual(['Editor', 'Browser', 'Documents', 'GitHub Actions workflows']);
  });

  it('does not overwrite a settings.json that does not parse, and says why', async () => {
    await openSettings();
    await writeFile(settingsFile(), '{ "integrations": ');
    await row('integrations.autoApproveEdits').locator('input[role=switch]').click();
    await page.locator('.toast', { hasText: 'is not valid JSON' }).waitFor();
    await row('integrations.autoApproveEdits')
      .locator('input[role=switch]:not(:disabled):not(:checked)')
      .waitFor();
    expect(await readFile(settingsFile(), 'utf8')).toBe('{ "integrations": ');
  });
});
