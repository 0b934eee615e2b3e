import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { call, TempDirs } from './support/cli.js';
import { sharedChromium, visibleText, startEditorSession, type EditorSession } from './support/ui.js';

/*
 * `selection.get` and `selection.set` against a person's selection: `vmark
 * serve` with its page in Debian Chromium, where the text is selected with the
 * keyboard, and an AI client of the same host over MCP.
 */

const temp = new TempDirs();
let browser: Browser;
let session: EditorSession | undefined;
let vault: string;
let page: Page;
let client: Client;

const NOTES = '# Notes\n\nSome **bold** words\n\nLast line\n';

beforeAll(async () => {
  browser = await sharedChromium();
});
afterAll(async () => {
  await temp.cleanup();
});

beforeEach(async () => {
  ({ vault, page, client } = session = await startEditorSession(
    temp,
    browser,
    { 'notes.md': NOTES, 'other.md': 'Other\n' },
    'notes.md',
  ));
});
afterEach(async () => {
  await session?.close();
});

const editor = () => page.locator('.editor-host .cm-content');
const setMode = (mode: 'source' | 'wysiwyg') => page.click(`.mode-switch [data-mode=${mode}]`);
const selection = async (args: Record<string, unknown> = {}) =>
  (await call(client, 'selection', { action: 'get', ...args })).data;
const hostText = async () => String((await call(client, 'document', { action: 'read' })).data.content);

/** Puts the cursor at the end of line `line` (1-based) with the keyboard. */
async function endOfLine(line: number): Promise<void> {
  await editor().click();
  await page.keyboard.press('Control+Home');
  for (let i = 1; i < line; i++) await page.keyboard.press('ArrowDown');
  await page.keyboard.press('End');
}

async function selectBack(characters: number): Promise<void> {
  for (let i = 0; i < characters; i++) await page.keyboard.press('Shift+ArrowLeft');
}

describe('selection', () => {
  it('reads and replaces what the person selected in live preview, as one undoable step', async () => {
    await setMode('wysiwyg');
    await endOfLine(3);
    await selectBack(5);
    // Offsets into the Markdown source, marks included, although live preview hides them elsewhere.
    await expect.poll(selection).toMatchObject({ text: 'words' });
    const read = await selection();
    expect(read).toEqual({
      text: 'words',
      isEmpty: false,
      range: { from: 23, to: 28 },
      mode: 'wysiwyg',
      kind: 'markdown',
      tabId: expect.stringMatching(/.+/),
      revision: expect.stringMatching(/^rev-/),
    });

    const set = await call(client, 'selection', {
      action: 'set',
      content: 'sentences',
      expected_revision: read.revision,
    });
    expect(set.data).toEqual({ revision: expect.stringMatching(/^rev-/), replaced_chars: 5 });
    await expect.poll(() => visibleText(page)).toContain('sentences');
    expect(await hostText()).toBe(NOTES.replace('words', 'sentences'));
    // The cursor goes after the new text (the seed), and the editor says so.
    await expect
      .poll(selection)
      .toMatchObject({ isEmpty: true, range: { from: 32, to: 32 }, revision: set.data.revision });

    await page.keyboard.press('Control+z');
    await expect.poll(() => visibleText(page)).toContain('words');
    expect(await visibleText(page)).not.toContain('sentences');
    await expect.poll(hostText).toBe(NOTES);
  });

  it('keeps plain text literal in live preview and takes Markdown as Markdown', async () => {
    await setMode('wysiwyg');
    await endOfLine(5);
    await selectBack(4);
    await expect.poll(selection).toMatchObject({ text: 'line' });
    await call(client, 'selection', { action: 'set', content: '5 * 3 = [x]' });
    await expect.poll(hostText).toContain('Last 5 \\* 3 = \\[x\\]\n');
    await endOfLine(1);
    await selectBack(5);
    await expect.poll(selection).toMatchObject({ text: 'Notes' });
    await call(client, 'selection', { action: 'set', content: '*My* notes' });
    await expect.poll(hostText).toMatch(/^# \*My\* notes\n/);
    // Away from the line being edited, live preview shows the emphasis without its marks.
    await endOfLine(3);
    await expect.poll(() => page.locator('.editor-host .cm-line').first().innerText()).toContain('My notes');
  });

  it('reads and replaces the selection in source mode, and inserts at a cursor', async () => {
    await setMode('source');
    await endOfLine(1);
    await selectBack(7);
    await expect
      .poll(selection)
      .toMatchObject({ text: '# Notes', range: { from: 0, to: 7 }, mode: 'source' });
    const read = await selection();
    const set = await call(client, 'selection', {
      action: 'set',
      content: '# Title',
      expected_revision: read.revision,
    });
    expect(set.data).toMatchObject({ replaced_chars: 7 });
    await expect.poll(() => visibleText(page)).toContain('# Title');

    await endOfLine(5);
    await expect.poll(selection).toMatchObject({ isEmpty: true, text: '', range: { from: 39, to: 39 } });
    await call(client, 'selection', { action: 'set', content: ' and more' });
    await expect.poll(() => visibleText(page)).toContain('Last line and more');
    expect(await hostText()).toBe('# Title\n\nSome **bold** words\n\nLast line and more\n');
    // The cursor went after the inserted text, as after typing it.
    await expect.poll(selection).toMatchObject({ isEmpty: true, range: { from: 48, to: 48 } });
  });

  it('answers STALE when the person typed after the AI read', async () => {
    await setMode('source');
    await endOfLine(5);
    await selectBack(4);
    await expect.poll(selection).toMatchObject({ text: 'line' });
    const read = await selection();
    await page.keyboard.type('row');
    await expect.poll(hostText).toContain('Last row');
    const set = await call(client, 'selection', {
      action: 'set',
      content: 'AI text',
      expected_revision: read.revision,
    });
    expect(set.isError).toBe(true);
    expect(set.data).toMatchObject({ error: 'STALE', current_revision: expect.stringMatching(/^rev-/) });
    expect(await hostText()).toBe(NOTES.replace('Last line', 'Last row'));
    expect(await visibleText(page)).not.toContain('AI text');
  });

  it('answers INVALID_TAB for another tab than the focused one', async () => {
    await editor().click();
    await expect.poll(selection).toMatchObject({ isEmpty: true });
    const opened = await call(client, 'workspace', {
      action: 'open',
      filePath: path.join(vault, 'other.md'),
    });
    expect(await selection({ tabId: opened.data.tabId })).toEqual({
      error: 'INVALID_TAB',
      message: 'tabId could not be resolved',
    });
  });

  it('answers NO_EDITOR once no page shows the document', async () => {
    await editor().click();
    await expect.poll(selection).toMatchObject({ isEmpty: true });
    await page.close();
    await expect.poll(selection).toMatchObject({ error: 'NO_EDITOR' });
    expect(await selection()).toEqual({
      error: 'NO_EDITOR',
      message: expect.stringMatching(/^No active (WYSIWYG|source) editor for the focused tab$/),
    });
  });
});
