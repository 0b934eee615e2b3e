import { lstat, mkdir, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { TempDirs } from './support/cli.js';
import { sharedChromium, type Served, serveWithPage } from './support/ui.js';

/*
 * Files from the file list as a person uses it (issue 19 item 4): `vmark serve` on a small vault
 * in Debian Chromium; Ctrl+N names a new note; a rename from the context menu updates the links
 * in another note (the count shown) and History puts that note back; a drag onto a folder moves a
 * note (its links follow again) and Undo moves it back; duplicate; delete to the trash (the freedesktop one, under a
 * temporary XDG_DATA_HOME) and Undo; a rename onto an existing name refused with nothing lost;
 * an open tab with unsaved changes following a rename; reveal, and F2 on a row.
 */

const temp = new TempDirs();
let browser: Browser;
let served: Served;
let vault: string;
let home: string;
let dataHome: string;
let page: Page;
// The end-to-end files share one process (vitest.config.ts): the trash folder set below goes back.
const dataHomeBefore = process.env.XDG_DATA_HOME;

const INDEX = 'See [[Plan]] and [the plan](notes/Plan.md).\n';

beforeAll(async () => {
  browser = await sharedChromium();
});
afterAll(async () => {
  if (dataHomeBefore === undefined) delete process.env.XDG_DATA_HOME;
  else process.env.XDG_DATA_HOME = dataHomeBefore;
  await temp.cleanup();
});

beforeEach(async () => {
  vault = await realpath(await temp.make('vmark-ui-files-vault-'));
  home = await temp.make('vmark-ui-files-home-');
  dataHome = await realpath(await temp.make('vmark-ui-files-data-'));
  await mkdir(path.join(vault, 'notes'));
  await mkdir(path.join(vault, 'archive'));
  await writeFile(path.join(vault, 'notes', 'Plan.md'), '# Plan\n');
  await writeFile(path.join(vault, 'archive', 'keep.md'), '# Keep\n');
  await writeFile(path.join(vault, 'index.md'), INDEX);
  await writeFile(path.join(vault, 'Welcome.md'), '# Welcome\n');
  // The system trash this host uses: a temporary one, never the machine's.
  process.env.XDG_DATA_HOME = dataHome;
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

const inVault = (...parts: string[]) => path.join(vault, ...parts);
const text = (...parts: string[]) => readFile(inVault(...parts), 'utf8');
const exists = (target: string) =>
  lstat(target).then(
    () => true,
    () => false,
  );
const row = (label: string) =>
  page.locator('.tree-row', { has: page.locator(`.tree-label:text-is("${label}")`) });
const activeTab = () => page.locator('.tab.is-active .tab-title');

async function menu(label: string, item: string): Promise<void> {
  await row(label).click({ button: 'right' });
  await page.locator('.context-menu-item', { hasText: item }).click();
}

async function renameTo(label: string, name: string): Promise<void> {
  await menu(label, 'Rename…');
  const field = page.locator('.tree-rename');
  await expect.poll(() => page.evaluate(() => document.activeElement?.className)).toBe('tree-rename');
  await field.fill(name);
  await field.press('Enter');
}

describe('files from the file list', () => {
  it('creates with Ctrl+N, renames with the links updated, and History puts a rewritten note back', async () => {
    // Ctrl+N: an untitled note at the root, its name ready to type over; it opens once named.
    await page.keyboard.press('Control+N');
    const field = page.locator('.tree-rename');
    await field.waitFor();
    expect(await field.inputValue()).toBe('Untitled');
    await page.keyboard.type('Ideas');
    await page.keyboard.press('Enter');
    // A rename that replaces nothing is a link and an unlink: for a moment both names are there.
    await expect
      .poll(() => Promise.all([exists(inVault('Ideas.md')), exists(inVault('Untitled.md'))]))
      .toEqual([true, false]);
    await expect.poll(() => activeTab().textContent()).toBe('Ideas');

    // Rename from the context menu: the links to it in index.md follow, and the count is said.
    await row('notes').click();
    await renameTo('Plan', 'Roadmap');
    await page.locator('.toast', { hasText: 'Updated 2 links in 1 note' }).waitFor();
    expect(await exists(inVault('notes', 'Roadmap.md'))).toBe(true);
    expect(await exists(inVault('notes', 'Plan.md'))).toBe(false);
    expect(await text('index.md')).toBe('See [[Roadmap]] and [the plan](notes/Roadmap.md).\n');

    // History puts index.md back as it was before the rename rewrote it.
    await page.locator('.toast-action', { hasText: 'Show History' }).click();
    const items = page.locator('.history-panel .history-item');
    await expect.poll(() => items.count()).toBe(1);
    expect(await items.locator('.chip').allTextContents()).toEqual(['files.move']);
    await items.first().locator('button', { hasText: 'Restore' }).click();
    await expect.poll(() => text('index.md')).toBe(INDEX);
  });

  it('moves by drag (links follow, Undo moves back), duplicates, deletes to the trash and undoes', async () => {
    // Ctrl+N goes to the folder picked in the list; Esc keeps the name Untitled and opens the note.
    await row('notes').click();
    await page.keyboard.press('Control+N');
    await page.locator('.tree-rename').waitFor();
    await page.keyboard.press('Escape');
    await expect.poll(() => activeTab().textContent()).toBe('Untitled');
    expect(await exists(inVault('notes', 'Untitled.md'))).toBe(true);

    await row('archive').click();
    await row('keep').waitFor();
    await row('Plan').dragTo(row('archive'));
    await expect.poll(() => exists(inVault('archive', 'Plan.md'))).toBe(true);
    expect(await exists(inVault('notes', 'Plan.md'))).toBe(false);
    const moved = page.locator('.toast', { hasText: 'Updated 1 link in 1 note' });
    await moved.waitFor();
    expect(await text('index.md')).toBe('See [[Plan]] and [the plan](archive/Plan.md).\n');
    // Undo moves it back, and the link follows back.
    await moved.locator('.toast-action', { hasText: 'Undo' }).click();
    await expect.poll(() => exists(inVault('notes', 'Plan.md'))).toBe(true);
    await page.locator('.toast', { hasText: 'Moved back' }).waitFor();
    expect(await exists(inVault('archive', 'Plan.md'))).toBe(false);
    expect(await text('index.md')).toBe(INDEX);

    // Duplicate, then delete the copy: to the trash, with its .trashinfo; Undo puts it back.
    await menu('keep', 'Duplicate');
    await expect.poll(() => exists(inVault('archive', 'keep copy.md'))).toBe(true);
    expect(await text('archive', 'keep copy.md')).toBe('# Keep\n');
    await menu('keep copy', 'Delete');
    const deleted = page.locator('.toast', { hasText: 'Moved “keep copy.md” to the trash' });
    await deleted.waitFor();
    expect(await exists(inVault('archive', 'keep copy.md'))).toBe(false);
    expect(await readFile(path.join(dataHome, 'Trash', 'files', 'keep copy.md'), 'utf8')).toBe('# Keep\n');
    expect(await readFile(path.join(dataHome, 'Trash', 'info', 'keep copy.md.trashinfo'), 'utf8')).toContain(
      `Path=${inVault('archive', 'keep%20copy.md')}`,
    );
    await deleted.locator('.toast-action', { hasText: 'Undo' }).click();
    await expect.poll(() => exists(inVault('archive', 'keep copy.md'))).toBe(true);
    expect(await exists(path.join(dataHome, 'Trash', 'files', 'keep copy.md'))).toBe(false);
    await row('keep copy').waitFor();
  });

  it('refuses a rename onto an existing name, and a tab with unsaved changes follows a rename', async () => {
    await row('notes').click();
    await writeFile(inVault('notes', 'Taken.md'), 'taken\n');
    await row('Taken').waitFor();
    await renameTo('Plan', 'Taken');
    await page.locator('.toast', { hasText: 'already exists' }).waitFor();
    expect([await text('notes', 'Plan.md'), await text('notes', 'Taken.md')]).toEqual([
      '# Plan\n',
      'taken\n',
    ]);

    // Names are kept exactly: a trailing space is part of one.
    await row('Plan').click();
    await expect.poll(() => activeTab().textContent()).toBe('Plan');
    await page.locator('.editor-host .cm-content').click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type('unsaved words');
    await expect.poll(() => page.locator('.tab.is-active').getAttribute('class')).toContain('is-dirty');
    await renameTo('Plan', 'Plan 2 ');
    await expect.poll(() => exists(inVault('notes', 'Plan 2 .md'))).toBe(true);
    await expect.poll(() => activeTab().textContent()).toBe('Plan 2 ');
    expect(await page.locator('.editor-host .cm-content').innerText()).toContain('unsaved words');
    expect(await text('notes', 'Plan 2 .md')).toBe('# Plan\n');
    await page.keyboard.press('Control+S');
    await expect.poll(() => text('notes', 'Plan 2 .md')).toContain('unsaved words');

    // Reveal: with its folder folded, the palette's command unfolds the list down to the tab's file.
    await row('notes').click();
    await expect.poll(() => row('Plan 2 ').isVisible()).toBe(false);
    await page.keyboard.press('Control+Shift+P');
    await page.locator('dialog.command-palette input').fill('reveal active file');
    await page.keyboard.press('Enter');
    await expect.poll(() => row('Plan 2 ').isVisible()).toBe(true);
    await expect
      .poll(() => page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.name))
      .toBe('Plan 2 .md');
    // F2 on the focused row renames it.
    await page.keyboard.press('F2');
    await page.locator('.tree-rename').fill('Final');
    await page.keyboard.press('Enter');
    await expect.poll(() => exists(inVault('notes', 'Final.md'))).toBe(true);
  });
});
