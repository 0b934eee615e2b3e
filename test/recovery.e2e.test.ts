import { readdir, readFile, realpath, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { call, eventually, TempDirs } from './support/cli.js';
import { connectMcp, launchChromium, type Served, serveWithPage } from './support/ui.js';

/*
 * Ctrl+C on `vmark serve` with unsaved edits (ADR 34): the edits are kept under VMARK_HOME, never
 * over the files, and the next start offers them back in the editor.
 */

interface Session {
  readonly served: Served;
  readonly page: Page;
  readonly client: Client;
}

const temp = new TempDirs();
let browser: Browser;
const open = new Set<Session>();

beforeAll(async () => {
  browser = await launchChromium();
});
afterEach(async () => {
  for (const session of open) await end(session);
});
afterAll(async () => {
  await browser?.close();
  await temp.cleanup();
});

const WELCOME = '# Welcome\n\nFirst line.\n';
const NOTES = 'notes\n';

async function serve(vault: string, home: string): Promise<Session> {
  const { served, page } = await serveWithPage(
    browser,
    ['--workspace', vault, '--open', path.join(vault, 'Welcome.md')],
    home,
  );
  const session = { served, page, client: await connectMcp(served) };
  open.add(session);
  return session;
}

async function end(session: Session, signal: 'SIGINT' | 'SIGTERM' = 'SIGTERM'): Promise<number | null> {
  open.delete(session);
  await session.client.close();
  await session.page.close();
  if (session.served.child.exitCode !== null) return session.served.child.exitCode;
  // `close`: once stdout has ended, so that `served.stdout` holds everything it printed.
  const closed = new Promise<number | null>((resolve) => session.served.child.once('close', resolve));
  // Twice, as when the terminal and a parent (npm start) both pass it on: the second must not cut the stop short.
  session.served.child.kill(signal);
  session.served.child.kill(signal);
  return closed;
}

/** Ctrl+C, as a person at the terminal gives it. */
const interrupt = (session: Session) => end(session, 'SIGINT');

const tab = (page: Page, title: string) => page.locator('.tab', { hasText: title });

it('keeps unsaved edits when vmark serve is interrupted, and offers them back on the next start', async () => {
  const vault = await realpath(await temp.make('vmark-recovery-vault-'));
  const home = await temp.make('vmark-recovery-home-');
  const welcome = path.join(vault, 'Welcome.md');
  const notes = path.join(vault, 'notes.md');
  await writeFile(welcome, WELCOME);
  await writeFile(notes, NOTES);

  // A person types in the editor (its WebSocket carries the keystrokes); an assistant writes without saving.
  const first = await serve(vault, home);
  await first.page.locator('.editor-host .cm-content').click();
  await first.page.keyboard.press('Control+End');
  await first.page.keyboard.type('Typed, never saved.');
  await expect.poll(() => tab(first.page, 'Welcome').getAttribute('class')).toContain('is-dirty');
  const { data: opened } = await call(first.client, 'workspace', { action: 'open', filePath: notes });
  const tabId = opened.tabId as string;
  await call(first.client, 'document', {
    action: 'write',
    tabId,
    content: 'notes by the assistant\n',
    save: false,
  });

  expect(await interrupt(first)).toBe(0);
  const said = first.served.stdout.join('\n');
  expect(said).toContain('vmark: kept the unsaved edits of 2 documents in ' + path.join(home, 'recovery'));
  expect(said).toContain(welcome);
  expect(said).toContain(notes);
  // The files are as they were saved; the copies are in VMARK_HOME.
  expect(await readFile(welcome, 'utf8')).toBe(WELCOME);
  expect(await readFile(notes, 'utf8')).toBe(NOTES);
  expect((await readdir(path.join(home, 'recovery'))).length).toBe(2);

  // The next start says edits are waiting, and the editor offers each back.
  const second = await serve(vault, home);
  await eventually(() => second.served.stdout.length >= 3);
  expect(second.served.stdout[0]).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=/);
  expect(second.served.stdout[2]).toContain('vmark: unsaved edits kept when vmark last stopped are waiting');
  expect(second.served.stdout[2]).toContain(welcome);
  const bars = second.page.locator('.recovery-edit');
  await expect.poll(() => bars.count()).toBe(2);
  const welcomeBar = bars.filter({ hasText: 'Welcome.md' });
  expect(await welcomeBar.locator('button').allInnerTexts()).toEqual(['Restore', 'Discard']);

  // Restore: the kept text in a tab with unsaved changes; the file untouched until a save.
  await welcomeBar.locator('button', { hasText: 'Restore' }).click();
  await expect.poll(() => bars.count()).toBe(1);
  await expect.poll(() => tab(second.page, 'Welcome').getAttribute('class')).toContain('is-dirty');
  await expect
    .poll(() => second.page.locator('.editor-host .cm-content').innerText())
    .toContain('Typed, never saved.');
  const { data: read } = await call(second.client, 'document', { action: 'read' });
  expect(read).toMatchObject({ filePath: welcome, dirty: true });
  expect(read.content).toBe(`${WELCOME}Typed, never saved.`);
  expect(await readFile(welcome, 'utf8')).toBe(WELCOME);

  // Discard: gone for good, in every window (another page is another window, with no tab yet).
  const other = await browser.newPage();
  try {
    await other.goto(second.served.url);
    await expect.poll(() => other.locator('.recovery-edit').count()).toBe(1);
    await bars.locator('button', { hasText: 'Discard' }).click();
    await expect.poll(() => bars.count()).toBe(0);
    await expect.poll(() => other.locator('.recovery-edit').count()).toBe(0);
  } finally {
    await other.close();
  }
  expect(await readdir(path.join(home, 'recovery'))).toEqual([]);
  expect(await readFile(notes, 'utf8')).toBe(NOTES);

  // Saving the restored tab writes it, as any save.
  await second.page.locator('.editor-host .cm-content').click();
  await second.page.keyboard.press('Control+s');
  await expect.poll(() => readFile(welcome, 'utf8')).toBe(`${WELCOME}Typed, never saved.`);
});

it('keeps nothing, and says nothing, when every edit was saved', async () => {
  const vault = await realpath(await temp.make('vmark-recovery-vault-'));
  const home = await temp.make('vmark-recovery-home-');
  await writeFile(path.join(vault, 'Welcome.md'), WELCOME);
  const session = await serve(vault, home);
  expect(await interrupt(session)).toBe(0);
  expect(session.served.stdout.join('\n')).not.toContain('kept');
  await expect(readdir(path.join(home, 'recovery'))).rejects.toThrow(/ENOENT/);
});
