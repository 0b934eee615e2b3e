import { mkdir, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { TempDirs } from './support/cli.js';
import { launchChromium, type Served, serveWithPage } from './support/ui.js';

/*
 * Vault search as a person uses it: `vmark serve` on a small vault in Debian Chromium,
 * Ctrl+Shift+F, a query with each option, a click on a match (the file opens with the match
 * selected), replace-in-files with one match unchecked, then the replace undone from History;
 * a regex that is not valid and one that would not end.
 */

const temp = new TempDirs();
let browser: Browser;
let served: Served;
let vault: string;
let home: string;
let page: Page;

const ALPHA = '# Alpha\n\nThe Cat sat on the mat.\nA category of cats.\n';
const BETA = '# Beta\n\nNo cat here? One cat, two cat.\n';

beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await temp.cleanup();
});

beforeEach(async () => {
  vault = await realpath(await temp.make('vmark-ui-search-vault-'));
  home = await temp.make('vmark-ui-search-home-');
  await mkdir(path.join(vault, 'notes'));
  await writeFile(path.join(vault, 'notes', 'alpha.md'), ALPHA);
  await writeFile(path.join(vault, 'notes', 'beta.md'), BETA);
  await writeFile(path.join(vault, 'Welcome.md'), '# Welcome\n');
  ({ served, page } = await serveWithPage(
    browser,
    ['--workspace', vault, '--open', path.join(vault, 'Welcome.md')],
    home,
  ));
});
afterEach(async () => {
  await page?.close();
  await served?.stop();
  await rm(vault, { recursive: true, force: true });
});

const panel = () => page.locator('.search-panel');
const files = () => page.locator('.search-panel .search-file');
const matches = () => page.locator('.search-panel .search-match');
const activeTab = () => page.locator('.tab.is-active .tab-title');

/** Opens the panel with the key and types the query; waits for the list of that query and these options. */
async function search(query: string): Promise<void> {
  await page.keyboard.press('Control+Shift+F');
  await panel().locator('.search-query').waitFor();
  await expect.poll(() => page.evaluate(() => document.activeElement?.className)).toContain('search-query');
  await page.keyboard.type(query);
  await page.locator(`.search-results[data-query="${query}"]`).waitFor({ state: 'attached' });
}

/** The listed matches as `file:line:text`, once the list shows `count` of them. */
async function listed(count: number): Promise<string[]> {
  await expect.poll(() => matches().count()).toBe(count);
  return files().evaluateAll((rows) =>
    rows.flatMap((row) =>
      [...row.querySelectorAll('.search-match')].map(
        (m) =>
          `${row.querySelector('.search-file-label')?.textContent}:${m.querySelector('.search-line')?.textContent}:${m.querySelector('.search-hit')?.textContent}`,
      ),
    ),
  );
}

async function toggle(title: string): Promise<void> {
  await panel().locator(`.search-toggle[title="${title}"]`).click();
}

describe('vault search', () => {
  it('opens with Ctrl+Shift+F, lists matches by file, and each option narrows them', async () => {
    await search('cat');
    expect(await listed(6)).toEqual([
      'notes/alpha.md:3:Cat',
      'notes/alpha.md:4:cat',
      'notes/alpha.md:4:cat',
      'notes/beta.md:3:cat',
      'notes/beta.md:3:cat',
      'notes/beta.md:3:cat',
    ]);
    expect(await panel().locator('.search-status').textContent()).toBe('6 results in 2 files');
    await toggle('Match case');
    expect(await listed(5)).not.toContain('notes/alpha.md:3:Cat');
    await toggle('Match whole word');
    expect(await listed(3)).toEqual(['notes/beta.md:3:cat', 'notes/beta.md:3:cat', 'notes/beta.md:3:cat']);
    await toggle('Match case');
    await toggle('Match whole word');
    await toggle('Use regular expression');
    await page.locator('.search-query').fill('cat(s|egory)');
    expect(await listed(2)).toEqual(['notes/alpha.md:4:category', 'notes/alpha.md:4:cats']);
  });

  it('opens the file at a clicked match, with the match selected', async () => {
    await search('two cat');
    await listed(1);
    await matches().first().click();
    await expect.poll(() => activeTab().textContent()).toBe('beta');
    await expect.poll(() => page.evaluate(() => window.getSelection()?.toString())).toBe('two cat');
  });

  it('replaces in files with one match unchecked, and History puts a file back', async () => {
    await search('cat');
    await listed(6);
    await page.locator('.search-replacement').fill('dog');
    // The preview: each match struck, the replacement after it.
    await expect.poll(() => page.locator('.search-panel ins.search-new').count()).toBe(6);
    // Leave "Cat" in alpha.md (its first match) as it is.
    await files().first().locator('.search-match').first().locator('.search-check').uncheck();
    await panel().locator('.search-replace-all').click();
    await page.locator('.search-status[data-replaced="5"]').waitFor({ state: 'attached' });
    expect(await readFile(path.join(vault, 'notes', 'alpha.md'), 'utf8')).toBe(
      '# Alpha\n\nThe Cat sat on the mat.\nA dogegory of dogs.\n',
    );
    expect(await readFile(path.join(vault, 'notes', 'beta.md'), 'utf8')).toBe(
      '# Beta\n\nNo dog here? One dog, two dog.\n',
    );
    await page.locator('.toast', { hasText: 'Replaced 5 matches in 2 files' }).waitFor();

    await page.keyboard.press('Escape');
    await page.click('.tool-button[data-action=history]');
    const items = page.locator('.history-panel .history-item');
    await expect.poll(() => items.count()).toBe(2);
    expect(await items.locator('.chip').allTextContents()).toEqual(['search.replace', 'search.replace']);
    const ofBeta = items.filter({ hasText: 'beta.md' });
    await ofBeta.locator('button', { hasText: 'Restore' }).click();
    await expect.poll(() => readFile(path.join(vault, 'notes', 'beta.md'), 'utf8')).toBe(BETA);
    expect(await readFile(path.join(vault, 'notes', 'alpha.md'), 'utf8')).toContain('dogegory');
  });

  it('says a regex is not valid, and stops one that would not end', async () => {
    await writeFile(path.join(vault, 'notes', 'long.md'), `${'a'.repeat(40)}!\n`);
    await search('x');
    await toggle('Use regular expression');
    await page.locator('.search-query').fill('(unclosed');
    await page.locator('.search-status.is-error', { hasText: 'not a valid regular expression' }).waitFor();
    expect(await matches().count()).toBe(0);
    await page.locator('.search-query').fill('(a+)+$');
    await page.locator('.search-status', { hasText: 'was stopped' }).waitFor({ timeout: 30_000 });
    expect(await panel().locator('.search-status').textContent()).toMatch(/more than 2 s on notes\/long\.md/);
    // The search still answers afterwards.
    await page.locator('.search-query').fill('category');
    expect(await listed(1)).toEqual(['notes/alpha.md:4:category']);
  });
});
