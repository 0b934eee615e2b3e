import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { countText } from '../core/shell/renderer/comfort/text-count.js';
import { call, eventually, TempDirs } from './support/cli.js';
import { type EditorSession, sharedChromium, startEditorSession } from './support/ui.js';

/*
 * A large document in the editor while an AI client writes to it (ADR 48): the write reaches
 * the page as the lines that changed, in one transaction the person can undo as one step, and
 * the person's cursor, scroll position and own undo steps stay where they were. The person's
 * keystrokes go to the host as changes, never as the whole text.
 */

const LINES = 40_000;
/** Each look saves and reads 3 MB: give a loaded machine time. */
const WAIT_MS = 30_000;
const lineText = (i: number) => `Line ${i}: 漢字かな and 😀 emoji, some words to make it wide enough`;
const ORIGINAL = Array.from({ length: LINES }, (_, i) => lineText(i)).join('\n') + '\n';

const temp = new TempDirs();
let browser: Browser;
let session: EditorSession;
let page: Page;
let client: Client;
/** Every WebSocket frame the page sent and received, as text. */
const sent: string[] = [];
const received: string[] = [];

beforeAll(async () => {
  browser = await sharedChromium();
  session = await startEditorSession(temp, browser, { 'large.md': ORIGINAL }, 'large.md');
  ({ page, client } = session);
  // The page's socket opened before these listeners: a reload gives a socket they see from the start.
  page.on('websocket', (socket) => {
    socket.on('framesent', ({ payload }) => void sent.push(String(payload)));
    socket.on('framereceived', ({ payload }) => void received.push(String(payload)));
  });
  await page.reload();
  await page.locator('.editor-host .cm-content').waitFor();
  await page.click('.mode-switch [data-mode=source]');
}, 60_000);
afterAll(async () => {
  await session?.close();
  await temp.cleanup();
});

/**
 * The host's text, saved and read from disk: `document.read` of a text this large answers with
 * the output bound's truncation envelope (75,000 bytes).
 */
const hostText = async () => {
  const saved = await call(client, 'workspace', { action: 'save' });
  expect(saved.isError).toBe(false);
  return readFile(path.join(session.vault, 'large.md'), 'utf8');
};

/** The revision the AI client would have from its last read. */
async function revision(): Promise<string> {
  const state = await call(client, 'session', { action: 'get_state' });
  const tabs = (state.data.windows as { tabs: { filePath?: string; revision: string }[] }[]).flatMap(
    (w) => w.tabs,
  );
  return tabs.find((t) => t.filePath?.endsWith('/large.md'))!.revision;
}

/** The text of the line at the top of the editor's visible area. */
const topLine = () =>
  page.evaluate(() => {
    const scroller = document.querySelector('.editor-host .cm-scroller')!;
    const top = scroller.getBoundingClientRect().top;
    const lines = [...scroller.querySelectorAll('.cm-line')];
    return lines.find((line) => line.getBoundingClientRect().bottom > top + 1)?.textContent ?? null;
  });

/** Scrolls as a person would, to about line `n`, and waits for it to be drawn. */
async function scrollToLine(n: number): Promise<void> {
  await page.evaluate((fraction) => {
    const scroller = document.querySelector('.editor-host .cm-scroller')!;
    scroller.scrollTop = scroller.scrollHeight * fraction;
  }, n / LINES);
  await page
    .locator('.cm-line', { hasText: /^Line \d+:/ })
    .first()
    .waitFor();
}

/** The status bar's counts, as numbers. */
async function shownCounts(): Promise<{ words: number; characters: number } | null> {
  const label = (await page.locator('.status-count').textContent()) ?? '';
  const match = /^([\d,]+) words? · ([\d,]+) characters?$/.exec(label);
  const number = (digits: string) => Number(digits.replaceAll(',', ''));
  return match ? { words: number(match[1]!), characters: number(match[2]!) } : null;
}

describe('a large document opened', () => {
  it('is counted whole in the status bar: every word and every character but white space', async () => {
    // Each line: Line, its number, 漢 字 か な (one word each), and, emoji, and seven more words.
    const characters = [...ORIGINAL].filter((c) => !/\s/u.test(c)).length;
    await expect.poll(shownCounts, { timeout: WAIT_MS }).toEqual({ words: 15 * LINES, characters });
  });
});

describe('an AI write into a large document the person is working in', () => {
  it('arrives as the changed lines, leaving the cursor, the scroll position and the undo steps', async () => {
    await scrollToLine(20_000);
    const line = page.locator('.cm-line', { hasText: /^Line 2\d{4}:/ }).nth(3);
    const clicked = Number(/^Line (\d+):/.exec((await line.textContent()) ?? '')?.[1]);
    await line.click();
    await page.keyboard.press('End');
    await page.keyboard.type('PERSON');
    await eventually(async () => (await hostText()).includes(`${lineText(clicked)}PERSON\n`), WAIT_MS);
    const shownBefore = await topLine();
    expect(shownBefore).toMatch(/^Line \d+:/);

    // The AI rewrites the whole text with three small changes: two above the person, one below.
    const lines = (await hostText()).split('\n');
    lines[10] = 'AI changed line 10';
    lines[39_000] = 'AI changed line 39000';
    lines.splice(5, 0, 'AI inserted a line');
    const write = await call(client, 'document', {
      action: 'write',
      content: lines.join('\n'),
      expected_revision: await revision(),
    });
    expect(write.isError).toBe(false);
    const aiUpdate = () => received.find((f) => f.includes('"doc.updates"') && f.includes('AI inserted'));
    await expect.poll(aiUpdate, { timeout: 20_000 }).toBeDefined();
    const update = aiUpdate()!;
    // Three replacements of a few characters each, not the 3 MB text.
    expect(update.length).toBeLessThan(1_000);
    expect(update).toContain('AI inserted a line');

    // The person's view did not move, and their next keystroke lands where their cursor was.
    expect(await topLine()).toBe(shownBefore);
    await page.keyboard.type('X');
    await eventually(async () => (await hostText()).includes(`${lineText(clicked)}PERSONX\n`), WAIT_MS);

    // Undo: the person's X, then the AI's write as one step (all three changes), then PERSON.
    await page.keyboard.press('Control+z');
    await eventually(async () => {
      const text = await hostText();
      return text.includes(`${lineText(clicked)}PERSON\n`) && text.includes('AI inserted a line');
    }, WAIT_MS);
    await page.keyboard.press('Control+z');
    await eventually(async () => {
      const text = await hostText();
      return (
        text.includes(`${lineText(clicked)}PERSON\n`) &&
        !text.includes('AI inserted a line') &&
        !text.includes('AI changed line 10') &&
        !text.includes('AI changed line 39000')
      );
    }, WAIT_MS);
    // The person's own typing, in as many steps as their history grouped it into (typing slowed
    // by a loaded machine splits into more).
    let text = await hostText();
    for (let presses = 0; presses < 8 && text !== ORIGINAL; presses++) {
      await page.keyboard.press('Control+z');
      const last = text;
      await eventually(async () => (text = await hostText()) !== last, WAIT_MS).catch(() => undefined);
    }
    const end = await hostText();
    let differsAt = 0;
    while (differsAt < end.length && end[differsAt] === ORIGINAL[differsAt]) differsAt++;
    if (differsAt === end.length && end.length === ORIGINAL.length) differsAt = -1;
    expect({ length: end.length, differsAt, around: end.slice(differsAt - 20, differsAt + 40) }).toEqual({
      length: ORIGINAL.length,
      differsAt: -1,
      around: '',
    });
  }, 120_000);

  it('sends the person’s keystrokes to the host as changes, not as the text', async () => {
    await page.keyboard.press('Control+End');
    const pushesBefore = sent.filter((f) => f.includes('"doc.push"')).length;
    await page.keyboard.type('typed at the end');
    await eventually(async () => (await hostText()).endsWith('typed at the end'), WAIT_MS);
    const pushes = sent.filter((f) => f.includes('"doc.push"')).slice(pushesBefore);
    expect(pushes.length).toBeGreaterThan(0);
    for (const push of pushes) expect(push.length).toBeLessThan(1_000);
  }, 60_000);

  it('gives a subscribed document’s text at the URL of its reply, once, not inside JSON nor on the socket', async () => {
    const expected = await hostText();
    const { host, searchParams } = new URL(session.served.url);
    const token = searchParams.get('token')!;
    const socket = new WebSocket(`ws://${host}/ws?token=${token}`, { origin: `http://${host}` });
    try {
      const frames: { binary: boolean; data: Buffer }[] = [];
      socket.on('message', (data: Buffer, binary) => frames.push({ binary, data }));
      await new Promise((resolve) => socket.once('open', resolve));
      // A socket of its own is a window of its own, without tabs: the tab is the AI's to name.
      const state = await call(client, 'session', { action: 'get_state' });
      const tabId = (state.data.windows as { tabs: { id: string; filePath?: string }[] }[])
        .flatMap((w) => w.tabs)
        .find((t) => t.filePath?.endsWith('/large.md'))!.id;
      socket.send(JSON.stringify({ id: 1, method: 'doc.subscribe', params: { tabId } }));
      await expect
        .poll(() => frames.some((f) => !f.binary && String(f.data).startsWith('{"type":"reply"')))
        .toBe(true);
      const at = frames.findIndex((f) => !f.binary && String(f.data).startsWith('{"type":"reply"'));
      const reply = JSON.parse(String(frames[at]!.data)) as { ok: boolean; result: Record<string, unknown> };
      expect(reply).toMatchObject({ ok: true, result: { kind: 'markdown', textUrl: expect.any(String) } });
      expect(reply.result).not.toHaveProperty('text');
      expect(frames.some((f) => f.binary)).toBe(false);
      const textAt = (withToken: boolean, method = 'GET') =>
        fetch(`http://${host}${String(reply.result.textUrl)}${withToken ? `?token=${token}` : ''}`, {
          method,
        });
      expect((await textAt(false)).status).toBe(401);
      // Only a GET takes the one fetch: a HEAD would spend it and deliver nothing.
      expect((await textAt(true, 'HEAD')).status).toBe(405);
      const fetched = await textAt(true);
      expect(fetched.status).toBe(200);
      expect(Buffer.from(await fetched.arrayBuffer()).toString('utf8')).toBe(expected);
      // Once: the text at a later version is another subscription's.
      expect((await textAt(true)).status).toBe(404);
    } finally {
      socket.close();
    }
  });

  it('counts again after typing: the count of the text as the host holds it', async () => {
    await page.locator('.editor-host .cm-content').focus();
    await page.keyboard.press('Control+End');
    await page.keyboard.type(' two more');
    await eventually(async () => (await hostText()).endsWith(' two more'), WAIT_MS);
    // Counted over the editor's rope, leaf by leaf: the same as the whole text counted at once.
    const whole = countText(await hostText());
    expect(whole.words).toBeGreaterThan(15 * LINES);
    await expect.poll(shownCounts, { timeout: WAIT_MS }).toEqual(whole);
  }, 60_000);

  it('opens from the file list complete, counted at once and editable (its text: the bytes read)', async () => {
    // Two-byte and astral text, as the bytes read reach the page without being encoded again (ADR 92).
    const fresh = `# Fresh 漢字\n\n${ORIGINAL}The last line 😀 of the fresh note\n`;
    await writeFile(path.join(session.vault, 'fresh.md'), fresh);
    await page.locator('.tree-file-row', { hasText: /^\s*fresh(\.md)?\s*$/ }).click();
    await page.locator('.editor-host .cm-content', { hasText: 'Fresh 漢字' }).waitFor();
    await expect.poll(shownCounts, { timeout: WAIT_MS }).toEqual(countText(fresh));
    await page.locator('.editor-host .cm-content').focus();
    await page.keyboard.press('Control+End');
    await page.locator('.cm-line', { hasText: 'The last line 😀 of the fresh note' }).waitFor();
    await page.keyboard.type('✓');
    // Saved from the host (the active tab): what is on disk is what the host holds.
    await eventually(async () => {
      await call(client, 'workspace', { action: 'save' });
      return (await readFile(path.join(session.vault, 'fresh.md'), 'utf8')) === `${fresh}✓`;
    }, WAIT_MS);
  }, 60_000);
});
