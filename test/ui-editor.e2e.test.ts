import { mkdir, readFile, realpath, rename, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { call, eventually, TempDirs } from './support/cli.js';
import { connectMcp, sharedChromium, type Served, serveWithPage, visibleText } from './support/ui.js';

/*
 * The editor as a person uses it: `vmark serve` on a copy of a small vault,
 * its page in Debian Chromium, and an AI client on the same host over MCP.
 */

const temp = new TempDirs();
let browser: Browser;
let served: Served;
let vault: string;
let page: Page;

const WELCOME = '# Welcome\n\nSome **bold** words and `code`.\n\nA [link](https://example.com) here.\n';

beforeAll(async () => {
  browser = await sharedChromium();
});
afterAll(async () => {
  await temp.cleanup();
});

beforeEach(async () => {
  vault = await realpath(await temp.make('vmark-ui-vault-'));
  await writeFile(path.join(vault, 'Welcome.md'), WELCOME);
  await mkdir(path.join(vault, 'notes'));
  await writeFile(path.join(vault, 'notes', 'todo.md'), 'first\n');
  ({ served, page } = await serveWithPage(
    browser,
    ['--workspace', vault, '--open', path.join(vault, 'Welcome.md')],
    await temp.make(),
  ));
});
afterEach(async () => {
  await page?.close();
  await served?.stop();
});

const editor = () => page.locator('.editor-host .cm-content');
const tab = (title: string) => page.locator('.tab', { hasText: title });
const setMode = (mode: 'source' | 'wysiwyg') => page.click(`.mode-switch [data-mode=${mode}]`);
const diskText = (name: string) => readFile(path.join(vault, name), 'utf8');

describe('vmark serve', () => {
  it('prints the page URL with its token first, and refuses requests without it', async () => {
    expect(served.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]{43}$/);
    const { port } = new URL(served.url);
    const status = (pathname: string, headers: Record<string, string> = {}) =>
      new Promise<number>((resolve, reject) => {
        request({ host: '127.0.0.1', port, path: pathname, headers }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        })
          .on('error', reject)
          .end();
      });
    const withToken = `/?token=${served.token}`;
    expect(await status(withToken)).toBe(200);
    expect(await status('/')).toBe(401);
    expect(await status('/?token=wrong')).toBe(401);
    expect(await status(`/assets/renderer.js?token=${served.token}`)).toBe(200);
    expect(await status('/assets/renderer.js')).toBe(401);
    expect(await status(`/assets/..%2Fbundle%2Fmain.js?token=${served.token}`)).toBe(404);
    expect(await status(withToken, { Host: `attacker.example:${port}` })).toBe(403);
    expect(await status(withToken, { Origin: 'http://attacker.example' })).toBe(403);
  });

  it('refuses a WebSocket without the token or from another origin', async () => {
    const { port } = new URL(served.url);
    const opens = (query: string, origin?: string) =>
      new Promise<boolean>((resolve) => {
        const socket = new WebSocket(`ws://127.0.0.1:${port}/ws${query}`, origin ? { origin } : {});
        socket.once('open', () => (socket.close(), resolve(true)));
        socket.once('error', () => resolve(false));
      });
    expect(await opens(`?token=${served.token}`, `http://127.0.0.1:${port}`)).toBe(true);
    expect(await opens('')).toBe(false);
    expect(await opens('?token=nope')).toBe(false);
    expect(await opens(`?token=${served.token}`, 'http://attacker.example')).toBe(false);
  });
});

describe('the editor', () => {
  it('opens a file from the tree, types, and saves with Ctrl-S', async () => {
    await page.locator('.tree-folder-row', { hasText: 'notes' }).click();
    await page.locator('.tree-file-row', { hasText: 'todo' }).click();
    await expect.poll(() => tab('todo').getAttribute('aria-selected')).toBe('true');
    await expect.poll(() => visibleText(page)).toContain('first');
    await editor().click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type('second line');
    await expect.poll(() => tab('todo').getAttribute('class')).toContain('is-dirty');
    await page.keyboard.press('Control+s');
    await expect.poll(() => diskText('notes/todo.md')).toBe('first\nsecond line');
    await expect.poll(() => tab('todo').getAttribute('class')).not.toContain('is-dirty');
  });

  it('blinks the cursor by a timer: shown again at once after a keystroke, no animation running', async () => {
    await editor().click();
    await page.keyboard.press('Control+End');
    const layer = page.locator('.editor-host .cm-cursorLayer');
    const shown = () => layer.evaluate((element) => getComputedStyle(element).visibility);
    // CodeMirror's endless CSS animation kept the browser drawing a frame every 1/60 s (ADR 108).
    const running = () =>
      page.evaluate(
        () =>
          document
            .getAnimations()
            .filter(
              (animation) =>
                animation.playState === 'running' &&
                (animation.effect as KeyframeEffect | null)?.target?.classList.contains('cm-cursorLayer'),
            ).length,
      );
    expect(await running()).toBe(0);
    await expect.poll(shown, { timeout: 3_000 }).toBe('hidden');
    await expect.poll(shown, { timeout: 3_000 }).toBe('visible');
    await expect.poll(shown, { timeout: 3_000 }).toBe('hidden');
    // CodeMirror names a fresh animation at every move; none may start (a 0 ms one would, ADR 109).
    await page.evaluate(() => {
      const started: string[] = [];
      (window as unknown as { animationsStarted: string[] }).animationsStarted = started;
      addEventListener('animationstart', (event) => started.push(event.animationName), true);
    });
    await page.keyboard.type('x');
    expect(await shown()).toBe('visible');
    expect(await running()).toBe(0);
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 50))));
    expect(
      await page.evaluate(() => (window as unknown as { animationsStarted: string[] }).animationsStarted),
    ).toEqual([]);
  });

  it('rests the cursor shown once the person has left it alone for ten seconds', async () => {
    // The page's timers from here on run on a clock the test moves.
    await page.clock.install();
    await editor().click();
    await page.keyboard.press('Control+End');
    const shown = () =>
      page
        .locator('.editor-host .cm-cursorLayer')
        .evaluate((element) => getComputedStyle(element).visibility);
    const seen = new Set<string>();
    for (let t = 0; t < 9_000; t += 300) {
      await page.clock.runFor(300);
      seen.add(await shown());
    }
    expect([...seen].sort()).toEqual(['hidden', 'visible']);
    await page.clock.runFor(1_500);
    for (let t = 0; t < 3_000; t += 300) {
      await page.clock.runFor(300);
      expect(await shown()).toBe('visible');
    }
    // A keystroke wakes it.
    await page.keyboard.type('x');
    seen.clear();
    for (let t = 0; t < 2_400; t += 300) {
      await page.clock.runFor(300);
      seen.add(await shown());
    }
    expect([...seen].sort()).toEqual(['hidden', 'visible']);
  });

  it('switches between tabs and closes them', async () => {
    await page.locator('.tree-folder-row', { hasText: 'notes' }).click();
    await page.locator('.tree-file-row', { hasText: 'todo' }).click();
    await expect.poll(() => page.locator('.tab').count()).toBe(2);
    await expect.poll(() => visibleText(page)).toContain('first');
    await tab('Welcome').click();
    await expect.poll(() => visibleText(page)).toContain('Welcome');
    await expect.poll(() => page.locator('.status-path').textContent()).toMatch(/\/Welcome\.md$/);
    await tab('todo').locator('.tab-close').click();
    await expect.poll(() => page.locator('.tab').count()).toBe(1);
    await tab('Welcome').locator('.tab-close').click();
    await expect.poll(() => page.locator('.empty-state').isVisible()).toBe(true);
  });

  it('hides Markdown marks in wysiwyg mode except on the line being edited, and shows them in source mode', async () => {
    await setMode('source');
    await expect.poll(() => visibleText(page)).toContain('Some **bold** words and `code`.');
    await setMode('wysiwyg');
    // The cursor sits on the first line: its `# ` stays, the other lines lose their marks.
    await expect.poll(() => visibleText(page)).toContain('Some bold words and code.');
    expect(await visibleText(page)).toContain('A link here.');
    expect(await visibleText(page)).toContain('# Welcome');
    await editor().locator('.cm-line', { hasText: 'bold' }).click();
    await expect.poll(() => visibleText(page)).toContain('Some **bold** words');
    expect(await visibleText(page)).toMatch(/^Welcome/);
  });

  it('shows an AI client’s document.write live, as one step the person can undo', async () => {
    await setMode('source');
    const client = await connectMcp(served);
    try {
      const read = await call(client, 'document', { action: 'read' });
      const content = String(read.data.content).replace('Some **bold** words', 'Some **strong** words');
      const write = await call(client, 'document', {
        action: 'write',
        content,
        expected_revision: read.data.revision,
      });
      expect(write.isError).toBe(false);
      await expect.poll(() => visibleText(page)).toContain('Some **strong** words');
      await editor().click();
      await page.keyboard.press('Control+z');
      await expect.poll(() => visibleText(page)).toContain('Some **bold** words');
      // The undo went to the host as an edit: the AI reads it back.
      await eventually(
        async () => (await call(client, 'document', { action: 'read' })).data.content === WELCOME,
      );
    } finally {
      await client.close();
    }
  });

  it('keeps both the person’s keystrokes and an AI’s write when they interleave', async () => {
    await setMode('source');
    const client = await connectMcp(served);
    try {
      await editor().click();
      await page.keyboard.press('Control+End');
      const typing = page.keyboard.type('typed by hand', { delay: 15 });
      const read = await call(client, 'document', { action: 'read' });
      const written = await call(client, 'document', {
        action: 'write',
        content: 'AI intro\n\n' + String(read.data.content),
        expected_revision: read.data.revision,
        save: false,
      });
      await typing;
      // A keystroke that landed between the AI's read and write makes the write STALE: nothing is lost.
      if (written.isError) expect(written.data).toMatchObject({ error: 'STALE' });
      else await expect.poll(() => visibleText(page)).toContain('AI intro');
      await expect.poll(() => visibleText(page)).toContain('typed by hand');
      await eventually(async () => {
        const text = String((await call(client, 'document', { action: 'read' })).data.content);
        return text.endsWith('typed by hand') && (written.isError || text.startsWith('AI intro\n\n'));
      });
    } finally {
      await client.close();
    }
  });

  it('tells the person when a save is refused', async () => {
    await editor().click();
    await page.keyboard.type('x');
    // Another program changes the file meanwhile: the host refuses to overwrite it.
    await writeFile(path.join(vault, 'Welcome.md'), 'changed elsewhere\n');
    await page.waitForTimeout(150);
    await page.keyboard.press('Control+s');
    await expect.poll(() => page.locator('.toast').first().textContent()).toContain('STALE');
    expect(await diskText('Welcome.md')).toBe('changed elsewhere\n');
  });

  it('asks which version stays when the file changes on disk under unsaved changes', async () => {
    const bar = page.locator('.conflict-bar');
    await editor().click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type('typed here');
    // Once the host holds the keystrokes as unsaved changes, another program changes the file.
    await expect.poll(() => tab('Welcome').getAttribute('class')).toContain('is-dirty');
    await writeFile(path.join(vault, 'Welcome.md'), 'changed elsewhere\n');
    await bar.getByRole('button', { name: 'Keep my version' }).waitFor();
    expect(await bar.textContent()).toContain('changed on disk');
    await bar.getByRole('button', { name: 'Keep my version' }).click();
    await expect.poll(() => diskText('Welcome.md')).toContain('typed here');
    await bar.waitFor({ state: 'hidden' });
    await expect.poll(() => tab('Welcome').getAttribute('class')).not.toContain('is-dirty');

    await editor().click();
    await page.keyboard.type(' and more');
    await expect.poll(() => tab('Welcome').getAttribute('class')).toContain('is-dirty');
    await writeFile(path.join(vault, 'Welcome.md'), 'changed again elsewhere\n');
    await bar.getByRole('button', { name: 'Use the version on disk' }).click();
    await expect.poll(() => visibleText(page)).toMatch(/^changed again elsewhere\s*$/);
    await bar.waitFor({ state: 'hidden' });
    expect(await diskText('Welcome.md')).toBe('changed again elsewhere\n');
  });

  it('opens a workflow as YAML, without a wysiwyg mode', async () => {
    await mkdir(path.join(vault, '.github', 'workflows'), { recursive: true });
    await writeFile(path.join(vault, '.github', 'workflows', 'ci.yml'), 'name: CI\non: push\n');
    await page.reload();
    await page.locator('.tree-folder-row', { hasText: '.github' }).click();
    await page.locator('.tree-folder-row', { hasText: 'workflows' }).click();
    await page.locator('.tree-file-row', { hasText: 'ci.yml' }).click();
    await expect.poll(() => visibleText(page)).toContain('name: CI');
    await expect.poll(() => page.locator('.mode-switch').getAttribute('class')).toContain('is-disabled');
  });
});

describe('the file tree', () => {
  const fileRow = (name: string) => page.locator('.tree-file-row', { hasText: name });
  const folderRow = (name: string) => page.locator('.tree-folder-row', { hasText: name });
  const rootFiles = () =>
    page.locator('.tree-root > .tree-children > .tree-file-row .tree-label').allTextContents();

  it('follows files and folders created, renamed and deleted on disk, without a reload', async () => {
    await fileRow('Welcome').waitFor();
    await writeFile(path.join(vault, 'Arrived.md'), 'new\n');
    await fileRow('Arrived').waitFor();
    expect(await rootFiles()).toEqual(['Arrived', 'Welcome']);

    // In a folder the person unfolded, too; a folder made on disk shows and unfolds.
    await folderRow('notes').click();
    await fileRow('todo').waitFor();
    await writeFile(path.join(vault, 'notes', 'later.md'), 'later\n');
    await fileRow('later').waitFor();
    await mkdir(path.join(vault, 'drafts'));
    await folderRow('drafts').waitFor();
    await folderRow('drafts').click();
    await writeFile(path.join(vault, 'drafts', 'one.md'), 'one\n');
    await fileRow('one').waitFor();

    // A rename is the old name gone and the new one shown; a deletion goes.
    await rename(path.join(vault, 'Arrived.md'), path.join(vault, 'Renamed.md'));
    await fileRow('Renamed').waitFor();
    await fileRow('Arrived').waitFor({ state: 'detached' });
    await rm(path.join(vault, 'notes', 'later.md'));
    await fileRow('later').waitFor({ state: 'detached' });
    await rm(path.join(vault, 'drafts'), { recursive: true });
    await folderRow('drafts').waitFor({ state: 'detached' });
    // The unfolded folder stayed unfolded through its parent's changes.
    expect(await folderRow('notes').getAttribute('aria-expanded')).toBe('true');
    expect(await fileRow('todo').isVisible()).toBe(true);

    // vmark's own temp files never show, not even for a moment: a save writes and renames one.
    const seen: string[] = [];
    await page.exposeFunction('vmarkSeenRow', (name: string) => seen.push(name));
    await page.evaluate(() => {
      new MutationObserver(() => {
        const seen = window as unknown as { vmarkSeenRow: (name: string) => void };
        document
          .querySelectorAll('.tree-label')
          .forEach((label) => seen.vmarkSeenRow(label.textContent ?? ''));
      }).observe(document.querySelector('.file-tree')!, { childList: true, subtree: true });
    });
    await editor().click();
    await page.keyboard.type('saved ');
    await page.keyboard.press('Control+s');
    await expect.poll(() => diskText('Welcome.md')).toContain('saved ');
    await writeFile(path.join(vault, 'Last.md'), 'last\n');
    await fileRow('Last').waitFor();
    expect(seen.filter((name) => name.includes('vmark-tmp'))).toEqual([]);
  });

  it('lets the host stop following a folder folded before its listing came back', async () => {
    // The page's WebSocket runs through the test, which holds the answer to the listing of notes.
    type Message = { id?: number; method?: string; params?: { path?: string } };
    const sent: Message[] = [];
    const held: string[] = [];
    let listing: number | undefined;
    let toPage: ((message: string) => void) | undefined;
    await page.routeWebSocket(/\/ws/, (ws) => {
      const host = ws.connectToServer();
      toPage = (message) => ws.send(message);
      ws.onMessage((message) => {
        const parsed = JSON.parse(String(message)) as Message;
        sent.push(parsed);
        if (parsed.method === 'tree.list' && parsed.params?.path?.endsWith('notes')) listing ??= parsed.id;
        host.send(message);
      });
      host.onMessage((message) => {
        const { id } = JSON.parse(String(message)) as Message;
        if (id !== undefined && id === listing && held.length === 0) held.push(String(message));
        else ws.send(message);
      });
    });
    await page.reload();
    await fileRow('Welcome').waitFor();
    const folds = () => sent.filter((m) => m.method === 'tree.fold' && m.params?.path?.endsWith('notes'));

    await folderRow('notes').click();
    // The host has listed the folder, and so follows it; the page has not heard yet.
    await expect.poll(() => held.length).toBe(1);
    await folderRow('notes').click();
    toPage!(held[0]!);
    await expect.poll(() => folds().length).toBe(1);

    // Unfolded again, the folder is listed and followed as before.
    await folderRow('notes').click();
    await fileRow('todo').waitFor();
    await writeFile(path.join(vault, 'notes', 'later.md'), 'later\n');
    await fileRow('later').waitFor();
    expect(folds()).toHaveLength(1);
  });
});

describe('opening what vmark cannot open', () => {
  it('says in words that a picture is not a text file', async () => {
    // A PNG's first bytes: not UTF-8.
    await writeFile(
      path.join(vault, 'pic.png'),
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0]),
    );
    await page.reload();
    await page.locator('.tree-file-row', { hasText: 'pic.png' }).click();
    const toast = page.locator('.toast').first();
    await toast.waitFor();
    expect(await toast.textContent()).toBe(
      '“pic.png” is a picture, not a text file. vmark opens text files only, such as Markdown and YAML.',
    );
    expect(await page.locator('.tab').count()).toBe(1);
  });

  it('says in words that another binary file is not text', async () => {
    await writeFile(path.join(vault, 'data.bin'), Buffer.from([0xff, 0xfe, 0x00, 0x41]));
    await page.reload();
    await page.locator('.tree-file-row', { hasText: 'data.bin' }).click();
    await expect
      .poll(() => page.locator('.toast').first().textContent())
      .toBe('“data.bin” is not a text file. vmark opens text files only, such as Markdown and YAML.');
  });
});

describe('closing a tab with unsaved changes', () => {
  const dialog = () => page.locator('dialog.unsaved-dialog[open]');

  async function typeAndClose(text: string): Promise<void> {
    await editor().click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type(text);
    await expect.poll(() => tab('Welcome').getAttribute('class')).toContain('is-dirty');
    await tab('Welcome').locator('.tab-close').click();
    await dialog().waitFor();
  }

  it('offers Save, Discard and Cancel; Cancel and Esc keep the tab and its changes', async () => {
    await typeAndClose('kept');
    expect(await dialog().locator('.modal-title').textContent()).toBe('Save changes to “Welcome”?');
    expect(await dialog().locator('footer button').allTextContents()).toEqual(['Cancel', 'Discard', 'Save']);
    // Save is the default answer, as in a desktop editor; Cancel keeps everything.
    expect(await dialog().locator('[data-choice=save]:focus').count()).toBe(1);
    await dialog().locator('[data-choice=cancel]').click();
    await dialog().waitFor({ state: 'detached' });
    expect(await tab('Welcome').getAttribute('class')).toContain('is-dirty');
    expect(await visibleText(page)).toContain('kept');

    await tab('Welcome').locator('.tab-close').click();
    await dialog().waitFor();
    await page.keyboard.press('Escape');
    await dialog().waitFor({ state: 'detached' });
    expect(await page.locator('.tab').count()).toBe(1);
    expect(await diskText('Welcome.md')).toBe(WELCOME);
  });

  it('Save writes the file and closes the tab', async () => {
    await typeAndClose('saved on close');
    await dialog().locator('[data-choice=save]').click();
    await expect.poll(() => page.locator('.tab').count()).toBe(0);
    expect(await diskText('Welcome.md')).toBe(WELCOME + 'saved on close');
  });

  it('Discard closes the tab and leaves the file as it was', async () => {
    await typeAndClose('thrown away');
    await dialog().locator('[data-choice=discard]').click();
    await expect.poll(() => page.locator('.tab').count()).toBe(0);
    expect(await diskText('Welcome.md')).toBe(WELCOME);
  });

  it('keeps the tab open and says why when the save is refused', async () => {
    await typeAndClose('mine');
    // Another program changes the file first: the host will not overwrite it.
    await writeFile(path.join(vault, 'Welcome.md'), 'changed elsewhere\n');
    await page.locator('.conflict-bar').waitFor();
    await dialog().locator('[data-choice=save]').click();
    await page.locator('.toast', { hasText: 'STALE' }).waitFor();
    expect(await page.locator('.tab').count()).toBe(1);
    expect(await diskText('Welcome.md')).toBe('changed elsewhere\n');
  });
});
