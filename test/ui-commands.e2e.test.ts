import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runCli, TempDirs } from './support/cli.js';
import { launchChromium, type Served, serveWithPage, startEditorSession, visibleText } from './support/ui.js';

/*
 * Commands and keys as a person uses them (ADR 61), through the built CLI in Debian Chromium:
 * the command palette running a plugin's command, a key rebound in Settings (the new key works,
 * the old does not, and so after a restart), a conflict shown, and a keybindings.json that is
 * not usable named while the defaults stay.
 */

const temp = new TempDirs();
let browser: Browser;
let served: Served;
let home: string;
let vault: string;
let page: Page;
let close: (() => Promise<void>) | undefined;

beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await temp.cleanup();
});

beforeEach(async () => {
  const session = await startEditorSession(
    temp,
    browser,
    { 'note.md': '中文English混排\n', 'other.md': '# Other\n' },
    'note.md',
  );
  ({ served, home, vault, page } = session);
  close = () => session.close();
});
afterEach(async () => {
  await close?.();
  close = undefined;
});

const keybindingsFile = () => path.join(home, 'keybindings.json');
const palette = () => page.locator('dialog.command-palette');
const items = () => palette().locator('.command-palette-item');
const row = (id: string) => page.locator(`.keybinding-row[data-command-id="${id}"]`);
const mode = () => page.locator('.app').getAttribute('data-mode');

async function openPalette(): Promise<void> {
  await page.locator('.editor-host .cm-content').click();
  await page.keyboard.press('Control+Shift+P');
  await palette().locator('input').waitFor();
}

async function openShortcuts(): Promise<void> {
  await page.click('.tool-button[data-action=settings]');
  await page.locator('dialog.settings-panel[open] .settings-keybindings').waitFor();
}

/** Change on the command's row, then the key: waits for the host's answer shown on the row. */
async function rebind(id: string, key: string, shown: string): Promise<void> {
  await row(id).locator('.keybinding-change').click();
  await row(id).locator('.keybinding-key', { hasText: 'Press a key' }).waitFor();
  await page.keyboard.press(key);
  await row(id).locator('.keybinding-key', { hasText: shown }).waitFor();
}

async function closeSettings(): Promise<void> {
  await page.locator('dialog.settings-panel[open] .modal-close').click();
  await page.locator('.editor-host .cm-content').click();
}

describe('the command palette', () => {
  it('finds a plugin command by a fuzzy query, shows its plugin and key, and runs it on the tab', async () => {
    await openPalette();
    await palette().locator('input').fill('fmtcjk');
    const first = items().first();
    expect(await first.getAttribute('data-command-id')).toBe('document.formatCjk');
    expect(await first.locator('.command-palette-category').textContent()).toBe('Document: ');
    expect(await first.locator('.command-palette-key').textContent()).toBe('Ctrl+Alt+F');
    await page.keyboard.press('Enter');
    await expect.poll(() => visibleText(page)).toMatch(/^中文 English 混排\s*$/);
    await page.locator('.toast', { hasText: 'Formatted the CJK text' }).waitFor();
    // A person's edit: in the buffer, the file as it was until they save.
    expect(await readFile(path.join(vault, 'note.md'), 'utf8')).toBe('中文English混排\n');
    await page.keyboard.press('Control+S');
    await expect.poll(() => readFile(path.join(vault, 'note.md'), 'utf8')).toBe('中文 English 混排\n');
  });

  it('moves with the arrow keys, closes with Esc, and runs the editor’s own commands', async () => {
    await openPalette();
    await palette().locator('input').fill('source');
    const selected = () => palette().locator('[aria-selected=true]').getAttribute('data-command-id');
    const top = await selected();
    await page.keyboard.press('ArrowDown');
    expect(await selected()).not.toBe(top);
    await page.keyboard.press('ArrowUp');
    expect(await selected()).toBe(top);
    await page.keyboard.press('Escape');
    await expect.poll(() => palette().isVisible()).toBe(false);
    await openPalette();
    await palette().locator('input').fill('switch to source');
    expect(await selected()).toBe('vmark.mode.source');
    await page.keyboard.press('Enter');
    await expect.poll(mode).toBe('source');
  });

  it('lists a turned-off plugin’s commands no more', async () => {
    await openPalette();
    await palette().locator('input').fill('format cjk');
    await items().first().waitFor();
    expect(await items().first().getAttribute('data-command-id')).toBe('document.formatCjk');
    await page.keyboard.press('Escape');
    await runCli(['plugins', 'disable', 'document'], { VMARK_HOME: home });
    await expect
      .poll(
        async () => {
          await page.keyboard.press('Control+Shift+P');
          await palette().locator('input').fill('format cjk');
          const ids = await palette()
            .locator('[data-command-id]')
            .evaluateAll((all) => all.map((e) => (e as HTMLElement).dataset.commandId));
          await page.keyboard.press('Escape');
          return ids.includes('document.formatCjk');
        },
        { timeout: 20_000 },
      )
      .toBe(false);
  }, 60_000);
});

describe('rebinding a key in Settings', () => {
  it('the new key runs the command, the old does not, and so after a restart', async () => {
    await openShortcuts();
    expect(await row('vmark.mode.toggle').locator('.keybinding-key').textContent()).toBe('Ctrl+E');
    await rebind('vmark.mode.toggle', 'Control+Shift+M', 'Ctrl+Shift+M');
    expect(JSON.parse(await readFile(keybindingsFile(), 'utf8'))).toEqual({
      version: 1,
      keys: { 'vmark.mode.toggle': 'Ctrl+Shift+M' },
    });
    await closeSettings();
    expect(await mode()).toBe('wysiwyg');
    await page.keyboard.press('Control+E');
    expect(await mode()).toBe('wysiwyg');
    await page.keyboard.press('Control+Shift+M');
    await expect.poll(mode).toBe('source');

    // A restart: the same VMARK_HOME, a new host and page.
    await close?.();
    close = undefined;
    ({ served, page } = await serveWithPage(
      browser,
      ['--workspace', vault, '--open', path.join(vault, 'note.md')],
      home,
    ));
    close = async () => {
      await page.close();
      await served.stop();
    };
    await page.locator('.editor-host .cm-content').click();
    const before = await mode();
    await page.keyboard.press('Control+E');
    expect(await mode()).toBe(before);
    await page.keyboard.press('Control+Shift+M');
    await expect.poll(mode).not.toBe(before);
  }, 60_000);

  it('removes a key and resets it to its default', async () => {
    await openShortcuts();
    await row('vmark.mode.toggle').locator('.keybinding-remove').click();
    await row('vmark.mode.toggle').locator('.keybinding-key', { hasText: '—' }).waitFor();
    expect((JSON.parse(await readFile(keybindingsFile(), 'utf8')) as { keys: unknown }).keys).toEqual({
      'vmark.mode.toggle': null,
    });
    await closeSettings();
    await page.keyboard.press('Control+E');
    expect(await mode()).toBe('wysiwyg');
    await openShortcuts();
    await row('vmark.mode.toggle').locator('.keybinding-reset').click();
    await row('vmark.mode.toggle').locator('.keybinding-key', { hasText: 'Ctrl+E' }).waitFor();
    await closeSettings();
    await page.keyboard.press('Control+E');
    await expect.poll(mode).toBe('source');
  });

  it('shows a key two commands share on both of them', async () => {
    await openShortcuts();
    await rebind('vmark.mode.live', 'Control+S', 'Ctrl+S');
    for (const id of ['vmark.save', 'vmark.mode.live']) {
      await expect.poll(() => row(id).getAttribute('class')).toContain('is-conflict');
    }
    expect(await row('vmark.save').locator('.keybinding-conflict').textContent()).toBe(
      'Ctrl+S is also bound to Editor: Switch to Live preview',
    );
  });

  it('names a keybindings.json that is not usable, keeps the defaults, and never writes over it', async () => {
    const broken = '{ "version": 1, "keys": { "vmark.save": "Ctrl+S", } ';
    await writeFile(keybindingsFile(), broken);
    await openShortcuts();
    await page.locator('.keybindings-problem', { hasText: `${keybindingsFile()} is not JSON` }).waitFor();
    await rebind('vmark.mode.toggle', 'Control+Shift+M', 'Ctrl+E');
    await page.locator('.toast', { hasText: 'Nothing was changed' }).waitFor();
    expect(await readFile(keybindingsFile(), 'utf8')).toBe(broken);
    await closeSettings();
    await page.keyboard.press('Control+E');
    await expect.poll(mode).toBe('source');
  });

  it('uses what it can of a file with an unknown command and a malformed key', async () => {
    await writeFile(
      keybindingsFile(),
      JSON.stringify({ version: 1, keys: { 'gone.command': 'Ctrl+G', 'vmark.mode.toggle': 'Ctrl+Hyper+E' } }),
    );
    await openShortcuts();
    await page.locator('.keybindings-problem', { hasText: 'the key of "vmark.mode.toggle"' }).waitFor();
    expect(await row('vmark.mode.toggle').locator('.keybinding-key').textContent()).toBe('Ctrl+E');
    await closeSettings();
    await page.keyboard.press('Control+E');
    await expect.poll(mode).toBe('source');
  });
});
