import { mkdir, readFile, realpath } from 'node:fs/promises';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { call, runCli, TempDirs } from './support/cli.js';
import {
  connectMcp,
  sharedChromium,
  type Served,
  visibleText,
  startEditorSession,
  type EditorSession,
} from './support/ui.js';

/*
 * The approval dialogs, the plugin manager and the AI edit history panel, as a
 * person uses them: `vmark serve` in Debian Chromium, and an AI client of the
 * same host over MCP. The README's pictures of them come from `npm run screenshots`.
 */

const temp = new TempDirs();
let browser: Browser;
let session: EditorSession | undefined;
let served: Served;
let vault: string;
let home: string;
let page: Page;
let client: Client;

const WELCOME = '# Welcome\n\nThe first draft.\n';

beforeAll(async () => {
  browser = await sharedChromium();
});
afterAll(async () => {
  await temp.cleanup();
});

/** A fresh vault with `vmark serve` on it, its page and an AI client. */
async function start(): Promise<void> {
  ({ vault, home, served, page, client } = session = await startEditorSession(
    temp,
    browser,
    { 'Welcome.md': WELCOME, 'Other.md': 'other\n' },
    'Welcome.md',
  ));
}
async function stop(): Promise<void> {
  await session?.close();
  session = undefined;
}

/**
 * Most tests open a folder, write a file or turn a plugin off: each gets a fresh host. Those whose
 * every request is refused or answered without a change share one (`onOneHost`), and each leaves it
 * as it found it: no dialog open, the same folder, files and plugins.
 */
function fresh(): void {
  beforeEach(start);
  afterEach(stop);
}
function onOneHost(): void {
  beforeAll(start);
  afterAll(stop);
}

const dialog = () => page.locator('dialog.approval-dialog[open]');
const openWorkspace = (folderPath: string) =>
  call(client, 'workspace', { action: 'open_workspace', folderPath });
const newFolder = async () => realpath(await temp.make('vmark-panels-other-'));

/** A second window on the same host, speaking the protocol directly (as a misbehaving page might). */
async function rawWindow(): Promise<{
  request: (method: string, params: unknown) => Promise<{ ok: boolean; error?: { code: string } }>;
  pushes: { type: string; ask?: { askId: string } }[];
  close: () => void;
}> {
  const { port } = new URL(served.url);
  const socket = new WebSocket(`ws://127.0.0.1:${port}/ws?token=${served.token}`);
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  const pushes: { type: string; ask?: { askId: string } }[] = [];
  const replies = new Map<number, (reply: { ok: boolean; error?: { code: string } }) => void>();
  socket.on('message', (data: Buffer) => {
    const message = JSON.parse(data.toString()) as { type: string; id?: number; ok?: boolean };
    if (message.type === 'reply') replies.get(message.id!)?.(message as { ok: boolean });
    else pushes.push(message);
  });
  let id = 0;
  return {
    request: (method, params) =>
      new Promise((resolve) => {
        replies.set(++id, resolve);
        socket.send(JSON.stringify({ id, method, params }));
      }),
    pushes,
    close: () => socket.close(),
  };
}

describe('approval dialogs', () => {
  fresh();

  it('asks the person naming the canonical folder, and Allow once opens it in the same call', async () => {
    const folder = await newFolder();
    await mkdir(path.join(folder, 'sub'));
    // Asked about the folder that would really open: `sub/..` is resolved, and what the AI wrote is shown too.
    const written = `${folder}${path.sep}sub${path.sep}..`;
    const asked = openWorkspace(written);
    await dialog().waitFor();
    expect(await dialog().locator('.approval-operation').textContent()).toBe('open_workspace');
    expect(await dialog().locator('.approval-subject').textContent()).toBe(folder);
    expect(await dialog().locator('.approval-requested').textContent()).toBe(written);
    expect(await dialog().locator('.approval-warning').count()).toBe(0);
    // Which client asks: the name it gives itself, its connection, and that no credential names it.
    expect(await dialog().locator('.approval-client-name').textContent()).toBe('vmark-e2e-ui');
    expect(await dialog().locator('.approval-client').textContent()).toMatch(
      /^vmark-e2e-ui 1\.0\.0 · connection conn-\d+ · not an installed client: the name is its own claim$/,
    );
    // Not grantable: no standing grant is offered. Deny is the default.
    expect(await dialog().locator('[data-answer=allow-site]').count()).toBe(0);
    expect(await dialog().locator('[data-answer=deny]:focus').count()).toBe(1);
    await dialog().locator('[data-answer=allow]').click();
    const opened = await asked;
    expect(opened.isError).toBe(false);
    expect(opened.data).toMatchObject({ folderPath: folder, workspaceInstanceId: expect.any(String) });
    await dialog().waitFor({ state: 'detached' });
  });

  it('queues several requests and shows them one at a time', async () => {
    const [first, second] = [await newFolder(), await newFolder()];
    const one = openWorkspace(first);
    await dialog().waitFor();
    const two = openWorkspace(second);
    await expect.poll(() => dialog().locator('.approval-count').textContent()).toBe('1 of 2');
    expect(await dialog().locator('.approval-subject').textContent()).toBe(first);
    await dialog().locator('[data-answer=deny]').click();
    expect((await one).data).toMatchObject({ denied: true });
    await expect.poll(() => dialog().locator('.approval-subject').textContent()).toBe(second);
    expect(await dialog().locator('.approval-count').textContent()).toBe('');
    await dialog().locator('[data-answer=allow]').click();
    expect((await two).data).toMatchObject({ folderPath: second });
  });

  it('names which client connection asks, and answers each one for that connection only', async () => {
    const second = await connectMcp(served);
    try {
      const folder = await newFolder();
      const fromFirst = openWorkspace(folder);
      await dialog().waitFor();
      const fromSecond = call(second, 'workspace', { action: 'open_workspace', folderPath: folder });
      await expect.poll(() => dialog().locator('.approval-count').textContent()).toBe('1 of 2');
      const firstClient = await dialog().locator('.approval-client').textContent();
      await dialog().locator('[data-answer=allow]').click();
      expect((await fromFirst).data).toMatchObject({ folderPath: folder });
      // The same folder asked by the other connection is its own question, with its own answer.
      await expect.poll(() => dialog().locator('.approval-count').textContent()).toBe('');
      const secondClient = await dialog().locator('.approval-client').textContent();
      expect(secondClient).toMatch(/ · connection conn-\d+ · /);
      expect(secondClient).not.toBe(firstClient);
      await dialog().locator('[data-answer=deny]').click();
      expect((await fromSecond).data).toMatchObject({
        needsApproval: true,
        denied: true,
        folderPath: folder,
      });
    } finally {
      await second.close();
    }
  });

  it('asks before save_as replaces a file, naming it and what it holds; Allow once replaces it', async () => {
    const other = path.join(vault, 'Other.md');
    const asked = call(client, 'workspace', { action: 'save_as', filePath: other });
    await dialog().waitFor();
    expect(await dialog().locator('.modal-title').textContent()).toBe('Replace a file');
    expect(await dialog().locator('.approval-operation').textContent()).toBe('save_as');
    expect(await dialog().locator('.approval-subject').textContent()).toBe(other);
    expect(await dialog().locator('.approval-detail').textContent()).toMatch(
      /^It replaces the file there now \(6 bytes, SHA-256 [0-9a-f]{64}\); VMark keeps its text in the AI edit history/,
    );
    expect(await dialog().locator('.approval-warning').count()).toBe(0);
    await dialog().locator('[data-answer=allow]').click();
    expect((await asked).data).toEqual({ revision: expect.stringMatching(/^rev-/) });
    expect(await readFile(other, 'utf8')).toBe(WELCOME);
  });

  it('leaves the request waiting, never allowed, when the page goes away with its dialog open', async () => {
    const folder = await newFolder();
    const asked = openWorkspace(folder);
    await dialog().waitFor();
    await page.close();
    const result = await asked;
    expect(result.isError).toBe(true);
    expect(result.data).toMatchObject({ needsApproval: true, folderPath: folder });
    expect(result.data.denied).toBeUndefined();
    // A new window is asked again when the AI retries, and its answer decides.
    page = await browser.newPage();
    await page.goto(served.url);
    // Connected (the editor shows the host's state): the window is an approver again.
    await page.locator('.editor-host .cm-content').waitFor();
    const retried = openWorkspace(folder);
    await dialog().waitFor();
    await dialog().locator('[data-answer=allow]').click();
    expect((await retried).data).toMatchObject({ folderPath: folder });
  });

  it('refuses bad answers and changes nothing; the first good answer from any window wins', async () => {
    const other = await rawWindow();
    try {
      const folder = await newFolder();
      const asked = openWorkspace(folder);
      await dialog().waitFor();
      await expect.poll(() => other.pushes.some((p) => p.type === 'approval.ask')).toBe(true);
      const askId = other.pushes.find((p) => p.type === 'approval.ask')!.ask!.askId;
      const refusal = { ok: false, error: { code: 'INVALID_ARGUMENT' } };
      // Not offered for open_workspace, unknown answers, unknown questions: refused, still open.
      expect(await other.request('approval.answer', { askId, answer: 'allow-site' })).toMatchObject(refusal);
      expect(await other.request('approval.answer', { askId, answer: 'yes' })).toMatchObject(refusal);
      expect(await other.request('approval.answer', { askId: 'ask-nope', answer: 'allow' })).toMatchObject(
        refusal,
      );
      expect(await dialog().count()).toBe(1);
      expect(await other.request('approval.answer', { askId, answer: 'allow' })).toMatchObject({ ok: true });
      expect((await asked).data).toMatchObject({ folderPath: folder });
      // The page's dialog goes: it was answered elsewhere.
      await dialog().waitFor({ state: 'detached' });
      expect(await other.request('approval.answer', { askId, answer: 'deny' })).toMatchObject(refusal);
    } finally {
      other.close();
    }
  });
});

describe('approval dialogs, answered without a change', () => {
  onOneHost();
  // The next test asks on the same page: the last answer's dialog must be gone first, or the next
  // `dialog().waitFor()` finds the old one still closing and answers it instead of the new one.
  afterEach(() => dialog().waitFor({ state: 'detached' }));

  it.each([
    ['the Deny button', (p: Page) => p.locator('dialog.approval-dialog[open] [data-answer=deny]').click()],
    ['Esc', (p: Page) => p.keyboard.press('Escape')],
    ['Enter', (p: Page) => p.keyboard.press('Enter')],
    [
      'Enter on the focused Allow button',
      async (p: Page) => {
        await p.locator('dialog.approval-dialog[open] [data-answer=allow]').focus();
        await p.keyboard.press('Enter');
      },
    ],
  ])('refuses the call on %s, and asks again next time', async (_how, answer) => {
    const folder = await newFolder();
    const asked = openWorkspace(folder);
    await dialog().waitFor();
    await answer(page);
    const refused = await asked;
    expect(refused.isError).toBe(true);
    expect(refused.data).toMatchObject({ needsApproval: true, denied: true, folderPath: folder });
    // A denial in the dialog is not remembered: the next call asks again.
    const again = openWorkspace(folder);
    await dialog().waitFor();
    await dialog().locator('[data-answer=deny]').click();
    expect((await again).data).toMatchObject({ denied: true });
  });

  it('says plainly when the path is no folder, and an allow then answers INVALID_PATH', async () => {
    const file = path.join(vault, 'Other.md');
    const asked = openWorkspace(file);
    await dialog().waitFor();
    expect(await dialog().locator('.approval-subject').textContent()).toBe(file);
    expect(await dialog().locator('.approval-warning').textContent()).toBe(
      'Cannot be done: this is not a folder (it is a file or another kind of entry), so it cannot be opened, ' +
        'even if allowed.',
    );
    await dialog().locator('[data-answer=allow]').click();
    expect((await asked).data).toEqual({
      error: 'INVALID_PATH',
      message: `Path ${JSON.stringify(file)} is not a folder: it cannot be opened as a workspace`,
    });
  });
});

const toolNames = async () => (await client.listTools()).tools.map((t) => t.name);

describe('plugin manager', () => {
  fresh();
  const card = (id: string) => page.locator(`.plugin-card[data-plugin-id="${id}"]`);

  it('lists every plugin with its details, and disabling one removes its tools from an open MCP session', async () => {
    let listChanged = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      listChanged += 1;
    });
    expect(await toolNames()).toContain('workflow');
    await page.click('.tool-button[data-action=plugins]');
    await card('workflow').waitFor();
    expect(await card('document').locator('.plugin-status').textContent()).toBe('Active');
    expect(await card('workflow').locator('.badge').textContent()).toBe('Built-in');
    expect(await card('workflow').locator('.plugin-version').textContent()).toMatch(/^\d+\.\d+\.\d+/);
    expect(await card('workflow').locator('.chip').allTextContents()).toContain('workflow');
    expect(await card('document').locator('.chip').allTextContents()).toEqual(
      expect.arrayContaining(['session', 'workspace', 'document', 'selection']),
    );

    await card('workflow').locator('input[role=switch]').click();
    await page.locator('dialog.disable-plugin-dialog[open] [data-choice=disable]').click();
    await expect.poll(() => card('workflow').locator('.plugin-status').textContent()).toBe('Disabled');
    await expect.poll(toolNames).not.toContain('workflow');
    expect(listChanged).toBeGreaterThan(0);
    expect(await toolNames()).toContain('document');

    const before = listChanged;
    await card('workflow').locator('input[role=switch]').click();
    await expect.poll(() => card('workflow').locator('.plugin-status').textContent()).toBe('Active');
    await expect.poll(toolNames).toContain('workflow');
    expect(listChanged).toBeGreaterThan(before);
    await page.keyboard.press('Escape');
    await page.locator('dialog.plugin-manager[open]').waitFor({ state: 'detached' });
  });

  it('asks before turning a plugin off, naming what goes with it; Cancel keeps it running', async () => {
    const confirm = page.locator('dialog.disable-plugin-dialog[open]');
    await page.click('.tool-button[data-action=plugins]');
    await card('document').locator('input[role=switch]').click();
    await confirm.waitFor();
    expect(await confirm.locator('.modal-title').textContent()).toBe('Turn off Documents?');
    const removes = (what: string) => confirm.locator(`[data-removes=${what}] .chip`).allTextContents();
    expect(await removes('tools')).toEqual(['session', 'workspace', 'document', 'selection']);
    expect(await removes('kinds')).toEqual(['Markdown', 'Plain text']);
    // Plugins that need it stop with it.
    expect(await removes('dependents')).toEqual(['Workspace coherence']);
    expect(await confirm.locator('[data-removes=settings]').textContent()).toMatch(/\d+ settings/);
    expect(await confirm.locator('.modal-body').textContent()).toContain('can no longer be opened');
    // Keeping it is the default answer.
    expect(await confirm.locator('[data-choice=cancel]:focus').count()).toBe(1);
    await confirm.locator('[data-choice=cancel]').click();
    await confirm.waitFor({ state: 'detached' });
    await expect.poll(() => card('document').locator('input[role=switch]').isChecked()).toBe(true);
    expect(await card('document').locator('.plugin-status').textContent()).toBe('Active');
    expect(await toolNames()).toContain('document');

    await card('document').locator('input[role=switch]').click();
    await confirm.locator('[data-choice=disable]').click();
    await expect.poll(() => card('document').locator('.plugin-status').textContent()).toBe('Disabled');
    await expect.poll(toolNames).not.toContain('document');
    expect(await card('coherence').locator('.plugin-status').textContent()).toBe('Not running');
    // Turning one on asks nothing.
    await card('document').locator('input[role=switch]').click();
    await expect.poll(() => card('document').locator('.plugin-status').textContent()).toBe('Active');
    expect(await confirm.count()).toBe(0);
  });

  it('says which plugin is off when no plugin opens a file, and opens the file once it is on again', async () => {
    expect((await runCli(['plugins', 'disable', 'document'], { VMARK_HOME: home })).code).toBe(0);
    await expect.poll(toolNames).not.toContain('document');
    await page.locator('.tree-file-row', { hasText: 'Other' }).click();
    const toast = page.locator('.toast', { hasText: 'Other.md' });
    await toast.waitFor();
    expect(await toast.locator('.toast-text').textContent()).toBe(
      'No plugin that is turned on opens “Other.md”. Documents, which opens Markdown and Plain text, is turned off.',
    );
    expect(await toast.textContent()).not.toContain('INTERNAL');
    await toast.getByRole('button', { name: 'Turn on Documents' }).click();
    await expect.poll(toolNames).toContain('document');
    await expect.poll(() => page.locator('.tab .tab-title').allTextContents()).toEqual(['Welcome', 'Other']);
    await expect.poll(() => visibleText(page)).toContain('other');
  });
});

const diskText = () => readFile(path.join(vault, 'Welcome.md'), 'utf8');

describe('AI edit history', () => {
  fresh();
  const items = () => page.locator('.history-panel .history-item');

  it('shows an AI write as it happens, and Restore puts the old text back in the editor and on disk', async () => {
    await page.click('.tool-button[data-action=history]');
    await page.locator('.history-panel .history-empty').waitFor();
    const read = await call(client, 'document', { action: 'read' });
    const write = await call(client, 'document', {
      action: 'write',
      content: '# Welcome\n\nRewritten by the assistant.\n',
      expected_revision: read.data.revision,
      save: true,
    });
    expect(write.isError).toBe(false);
    await expect.poll(() => visibleText(page)).toContain('Rewritten by the assistant.');
    await expect.poll(() => items().count()).toBe(1);
    expect(await items().first().locator('.chip').textContent()).toBe('document.write');
    expect(await items().first().locator('.history-file').textContent()).toBe('Welcome.md');
    expect(await items().first().locator('.history-description').textContent()).toMatch(/^Wrote document/);

    await items().first().locator('button', { hasText: 'Restore' }).click();
    await expect.poll(() => visibleText(page)).toContain('The first draft.');
    await expect.poll(diskText).toBe(WELCOME);
    // The restore is itself recorded, newest first, so it can be undone too.
    await expect.poll(() => items().count()).toBe(2);
    expect(await items().first().locator('.chip').textContent()).toBe('checkpoints.restore');
    const reread = await call(client, 'document', { action: 'read' });
    expect(reread.data.content).toBe(WELCOME);
    expect(reread.data.revision).not.toBe(read.data.revision);
  });

  it('shows a restore done from a terminal, without a reload', async () => {
    await page.click('.tool-button[data-action=history]');
    const read = await call(client, 'document', { action: 'read' });
    await call(client, 'document', {
      action: 'write',
      content: 'changed by the assistant\n',
      expected_revision: read.data.revision,
      save: true,
    });
    await expect.poll(() => items().count()).toBe(1);
    const id = await items().first().getAttribute('data-checkpoint-id');
    const restored = await runCli(['checkpoints', 'restore', id!], { VMARK_HOME: home });
    expect(restored.code).toBe(0);
    // Another process recorded it: the panel follows the history on disk.
    await expect.poll(() => items().count()).toBe(2);
    expect(await items().first().locator('.chip').textContent()).toBe('checkpoints.restore');
    await expect.poll(() => visibleText(page)).toContain('The first draft.');
  });

  it('filters by the file being edited', async () => {
    await page.click('.tool-button[data-action=history]');
    const read = await call(client, 'document', { action: 'read' });
    await call(client, 'document', {
      action: 'write',
      content: 'changed\n',
      expected_revision: read.data.revision,
    });
    await expect.poll(() => items().count()).toBe(1);
    await page.locator('.history-filter input').check();
    await expect.poll(() => items().count()).toBe(1);
    await page.locator('.tree-file-row', { hasText: 'Other' }).click();
    await page.locator('.history-panel .history-empty', { hasText: 'this file' }).waitFor();
    await page.locator('.history-filter input').uncheck();
    await expect.poll(() => items().count()).toBe(1);
  });
});

describe('bad requests from a window, refused without a change', () => {
  onOneHost();

  it('refuses an unknown plugin id and leaves the enabled state alone', async () => {
    const other = await rawWindow();
    try {
      expect(
        await other.request('plugins.setEnabled', { id: 'no-such-plugin', enabled: false }),
      ).toMatchObject({
        ok: false,
        error: { code: 'INVALID_ARGUMENT' },
      });
      expect(await other.request('plugins.setEnabled', { id: 'workflow', enabled: 'no' })).toMatchObject({
        ok: false,
        error: { code: 'INVALID_ARGUMENT' },
      });
      expect(await toolNames()).toContain('workflow');
    } finally {
      other.close();
    }
  });

  it('refuses to restore an id that is not in the history, changing nothing', async () => {
    const other = await rawWindow();
    try {
      for (const id of ['../../etc/passwd', 'ckpt-0000000000000000z']) {
        expect(await other.request('history.restore', { id })).toMatchObject({
          ok: false,
          error: { code: 'INVALID_ARGUMENT' },
        });
      }
      expect(await other.request('history.list', { filePath: 'relative.md' })).toMatchObject({
        ok: false,
        error: { code: 'INVALID_ARGUMENT' },
      });
      expect(await diskText()).toBe(WELCOME);
    } finally {
      other.close();
    }
  });
});
