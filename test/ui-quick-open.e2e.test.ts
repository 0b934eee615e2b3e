import { mkdir, realpath, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { TempDirs } from './support/cli.js';
import { launchChromium, type Served, serveWithPage, visibleText } from './support/ui.js';

/*
 * Quick open as a person uses it: `vmark serve` on a vault of a few hundred notes in Debian
 * Chromium, Ctrl+P, a fuzzy query, the arrow keys and Enter; the recent files first on an empty
 * query, still so after a restart of the editor.
 */

const temp = new TempDirs();
let browser: Browser;
let served: Served;
let vault: string;
let home: string;
let page: Page;

const FOLDERS = ['journal', 'projects', 'reading', 'meetings'];

beforeAll(async () => {
  browser = await launchChromium();
  vault = await realpath(await temp.make('vmark-ui-vault-'));
  for (const folder of FOLDERS) {
    await mkdir(path.join(vault, folder, '2024'), { recursive: true });
    for (let i = 0; i < 80; i++) {
      await writeFile(path.join(vault, folder, '2024', `${folder}-note-${i}.md`), `# ${folder} ${i}\n`);
    }
  }
  await writeFile(path.join(vault, 'meetings', '2024', 'team-planning.md'), '# Team planning\n\nAgenda.\n');
  await writeFile(path.join(vault, 'Welcome.md'), '# Welcome\n');
});
afterAll(async () => {
  await browser?.close();
  await temp.cleanup();
});

beforeEach(async () => {
  // A home of its own per test: the recent files start empty.
  home = await temp.make('vmark-ui-home-');
  ({ served, page } = await serveWithPage(
    browser,
    ['--workspace', vault, '--open', path.join(vault, 'Welcome.md')],
    home,
  ));
});
afterEach(async () => {
  await page?.close();
  await served?.stop();
});

const dialog = () => page.locator('dialog.quick-open[open]');
const items = () => page.locator('dialog.quick-open[open] .quick-open-item');
const activeTab = () => page.locator('.tab.is-active .tab-title');

async function quickOpen(query: string): Promise<void> {
  await page.keyboard.press('Control+P');
  await dialog().waitFor();
  await page.keyboard.type(query);
  // The answer to an earlier letter may still be shown: wait for the list of the whole query.
  await page.locator(`dialog.quick-open[open] [role=listbox][data-query="${query}"]`).waitFor();
}

/** Waits until the list answers `query` with `first` at the top. */
async function firstIs(label: string): Promise<void> {
  await page
    .locator('dialog.quick-open[open] .quick-open-item[aria-selected=true]', { hasText: label })
    .first()
    .waitFor();
  expect(await items().first().getAttribute('data-path')).toMatch(
    new RegExp(`${label.replaceAll('.', '\\.')}$`),
  );
}

describe('quick open', () => {
  it('finds a file by a fuzzy query, highlights the letters, and Enter opens it', async () => {
    await quickOpen('mtgplan');
    await firstIs('team-planning.md');
    const marks = await items().first().locator('mark').allTextContents();
    expect(marks.join('').toLowerCase()).toBe('mtgplan');
    await page.keyboard.press('Enter');
    await dialog().waitFor({ state: 'detached' });
    await expect.poll(() => activeTab().textContent()).toBe('team-planning');
    await expect.poll(() => visibleText(page)).toContain('Agenda.');
  });

  it('moves with the arrow keys, and Esc closes without opening anything', async () => {
    await quickOpen('jrnnote1');
    await items().nth(2).waitFor();
    const second = await items().nth(1).getAttribute('data-path');
    await page.keyboard.press('ArrowDown');
    expect(await items().nth(1).getAttribute('aria-selected')).toBe('true');
    await page.keyboard.press('Escape');
    await dialog().waitFor({ state: 'detached' });
    expect(await activeTab().textContent()).toBe('Welcome');
    await quickOpen('jrnnote1');
    await items().nth(2).waitFor();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await expect.poll(() => activeTab().textContent()).toBe(path.basename(second!, '.md'));
  });

  it('lists the recently opened files first on an empty query, most recent first, after a restart too', async () => {
    await quickOpen('readnote7');
    await firstIs('reading-note-7.md');
    await page.keyboard.press('Enter');
    await expect.poll(() => activeTab().textContent()).toBe('reading-note-7');
    await quickOpen('projnote12');
    await firstIs('projects-note-12.md');
    await page.keyboard.press('Enter');
    await expect.poll(() => activeTab().textContent()).toBe('projects-note-12');

    const recentFirst = async () => {
      await page.keyboard.press('Control+P');
      await dialog().waitFor();
      await items().nth(2).waitFor();
      const labels = await items().evaluateAll((rows) =>
        rows
          .slice(0, 2)
          .map((row) => [row.getAttribute('data-path'), row.querySelector('.quick-open-recent') !== null]),
      );
      expect(labels).toEqual([
        [path.join(vault, 'projects', '2024', 'projects-note-12.md'), true],
        [path.join(vault, 'reading', '2024', 'reading-note-7.md'), true],
      ]);
      expect(await items().nth(2).locator('.quick-open-recent').count()).toBe(0);
    };
    await recentFirst();
    await page.keyboard.press('Escape');

    await page.close();
    await served.stop();
    ({ served, page } = await serveWithPage(
      browser,
      ['--workspace', vault, '--open', path.join(vault, 'Welcome.md')],
      home,
    ));
    await recentFirst();
  });
});
