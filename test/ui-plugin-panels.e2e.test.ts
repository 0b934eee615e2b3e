import { request as httpRequest } from 'node:http';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { call, runCli, TempDirs } from './support/cli.js';
import {
  sharedChromium,
  type Served,
  startEditorSession,
  type EditorSession,
  visibleText,
} from './support/ui.js';

/*
 * Panels that plugins contribute (ADR 20), through the built CLI: the coherence
 * breakdown panel in Debian Chromium, following an AI client's edits and the
 * plugin's enabled state, and the UI server's refusals of files it must not serve.
 */

const temp = new TempDirs();
let browser: Browser;
let session: EditorSession | undefined;
let served: Served;
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

/** A fresh vault, `vmark serve` on it, its page and an AI client. */
async function start(): Promise<void> {
  ({ vault, served, page, client, home } = session = await startEditorSession(
    temp,
    browser,
    { 'elena.md': '# Elena\n\nElena is a smith.\n', 'chapter-3.md': '# Chapter 3\n' },
    'elena.md',
  ));
}
async function stop(): Promise<void> {
  await session?.close();
  session = undefined;
}

const button = () => page.locator('.tool-button[data-plugin-panel="coherence/breakdown"]');
const panel = () => page.locator('.plugin-panel[data-plugin-id=coherence][data-panel-id=breakdown]');
const note = () => panel().locator('.coherence-note').textContent();
const plugins = (action: 'enable' | 'disable') =>
  runCli(['plugins', action, 'coherence'], { VMARK_HOME: home });

/** `GET` with the path sent exactly as given (no `..` folding), as a hostile page or tool might. */
function get(rawPath: string): Promise<{ status: number; type: string; csp: string; body: string }> {
  const { port } = new URL(served.url);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path: rawPath }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          type: String(res.headers['content-type']),
          csp: String(res.headers['content-security-policy']),
          body,
        }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the coherence breakdown panel', () => {
  // Each test writes the vault, the ledger or the enabled state: a fresh host each.
  beforeEach(start);
  afterEach(stop);

  it('shows the active workspace, follows an AI write, and shows the edge that went stale', async () => {
    await button().click();
    await panel().waitFor();
    await expect.poll(note).toMatch(/^No ledger yet/);
    expect(await panel().locator('.coherence-workspace').textContent()).toBe(path.basename(vault));

    const open = async (file: string) =>
      (await call(client, 'workspace', { action: 'open', filePath: path.join(vault, file) })).data
        .tabId as string;
    const elena = await open('elena.md');
    const chapter = await open('chapter-3.md');
    await call(client, 'document', { action: 'read', tabId: elena });
    const write = await call(client, 'document', {
      action: 'write',
      tabId: chapter,
      content: '# Chapter 3\n\nElena forged a blade.\n',
    });
    expect(write.isError).toBe(false);
    // Refreshed after the write, with no click: the ledger exists now, and nothing is stale yet.
    await expect.poll(note).toBe('Nothing is stale.');

    // Someone edits the upstream outside vmark; the panel shows it on Refresh. (The coherence
    // plugin learns of the edit from a file watcher, whose event may come a moment later.)
    const file = path.join(vault, 'elena.md');
    await writeFile(file, (await readFile(file, 'utf8')).replace('a smith', 'a baker'));
    const edge = panel().locator('.coherence-edge');
    await expect
      .poll(async () => {
        await panel().locator('.coherence-refresh').click();
        return edge.count();
      })
      .toBe(1);
    expect(await edge.locator('.coherence-edge-paths').textContent()).toBe('chapter-3.md ← elena.md');
    expect(await edge.locator('.coherence-edge-state').textContent()).toBe('version-stale');
    expect(await edge.locator('.coherence-edge-confidence').textContent()).toMatch(/^confidence \S+/);
    expect(await panel().locator('.coherence-count').allTextContents()).toEqual(['2', '1']);
    // Read-only: nothing in the panel resolves the edge.
    expect(await panel().locator('button').allTextContents()).toEqual(['Refresh']);
  });

  it('a person’s edit to a source in the editor makes the derived chapter stale; unsaved edits stay theirs', async () => {
    const open = async (file: string) =>
      (await call(client, 'workspace', { action: 'open', filePath: path.join(vault, file) })).data
        .tabId as string;
    const elena = await open('elena.md');
    const chapter = await open('chapter-3.md');
    const edges = async () =>
      JSON.parse((await call(client, 'coherence', { action: 'edges', workspace_root: vault })).text) as {
        state: string;
        upstream_path: string;
      }[];
    await call(client, 'document', { action: 'read', tabId: elena });
    // The person types into the sheet after the AI read it, and has not saved yet.
    const editor = page.locator('.editor-host .cm-content');
    await editor.click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type('Scar on the left cheek.');
    await expect.poll(() => page.locator('.tab.is-active').getAttribute('class')).toContain('is-dirty');
    await call(client, 'document', {
      action: 'write',
      tabId: chapter,
      content: '# Chapter 3\n\nFrom the sheet.\n',
    });
    expect(await edges()).toEqual([]);
    // The sheet got its identity on disk, as it was read; the person's typing is still theirs, unsaved.
    const onDisk = await readFile(path.join(vault, 'elena.md'), 'utf8');
    expect(onDisk).toMatch(/^---\nvmark:\n {2}id: [0-9a-f-]{36}\n---\n# Elena\n\nElena is a smith\.\n$/);
    await expect.poll(() => visibleText(page)).toContain('Scar on the left cheek.');
    expect(await page.locator('.tab.is-active').getAttribute('class')).toContain('is-dirty');

    // Saved with Ctrl-S: a person's revision of the upstream.
    await page.keyboard.press('Control+s');
    await expect
      .poll(() => readFile(path.join(vault, 'elena.md'), 'utf8'))
      .toContain('Scar on the left cheek.');
    expect(await readFile(path.join(vault, 'elena.md'), 'utf8')).toMatch(/^---\nvmark:\n {2}id: /);
    await expect
      .poll(edges)
      .toEqual([expect.objectContaining({ upstream_path: 'elena.md', state: 'version-stale' })]);
    await button().click();
    await panel().waitFor();
    await expect
      .poll(() => panel().locator('.coherence-edge-state').allTextContents())
      .toEqual(['version-stale']);
  });

  it('goes away live when the coherence plugin is disabled, and comes back when enabled', async () => {
    await button().click();
    await expect.poll(note).toMatch(/^No ledger yet/);
    expect((await plugins('disable')).code).toBe(0);
    await expect.poll(() => panel().count()).toBe(0);
    expect(await button().count()).toBe(0);
    // The other panels stay.
    expect(await page.locator('.tool-button[data-action=history]').count()).toBe(1);

    expect((await plugins('enable')).code).toBe(0);
    await button().waitFor();
    await button().click();
    await expect.poll(note).toMatch(/^No ledger yet/);
  });
});

describe("a plugin's ui/ files", () => {
  const module = '/plugins/coherence/ui/dist/breakdown.js';
  // One host for the requests that change nothing; the test that disables the plugin has its own.
  beforeAll(start);
  afterAll(stop);

  it('serves the panel module of an active plugin, with the token and the page CSP', async () => {
    const served200 = await get(`${module}?token=${served.token}`);
    expect(served200.status).toBe(200);
    expect(served200.type).toMatch(/^text\/javascript/);
    expect(served200.csp).toContain("script-src 'self'");
    expect(served200.body).toContain('mount');
    expect((await get(module)).status).toBe(401);
    expect((await get(`${module}?token=wrong`)).status).toBe(401);
  });

  it.each([
    '/plugins/coherence/ui/../../manifest.json',
    '/plugins/coherence/ui/../manifest.json',
    '/plugins/coherence/ui/..%2f..%2fmanifest.json',
    '/plugins/coherence/ui/%2e%2e/manifest.json',
    '/plugins/coherence/ui/breakdown.ts',
    '/plugins/coherence/dist/index.js',
    '/plugins/coherence/ui/../../document/manifest.json',
    '/plugins/document/ui/dist/breakdown.js',
    '/plugins/document/manifest.json',
    '/plugins/no-such-plugin/ui/x.js',
    '/plugins/Coherence/ui/dist/breakdown.js',
  ])('refuses %s', async (rawPath) => {
    const refused = await get(`${rawPath}?token=${served.token}`);
    expect(refused.status).toBe(404);
    expect(refused.body).not.toContain('"id"');
  });

  it("routes a panel's requests to its own plugin's provider only", async () => {
    const { port } = new URL(served.url);
    const socket = new WebSocket(`ws://127.0.0.1:${port}/ws?token=${served.token}`);
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    const replies = new Map<number, (reply: unknown) => void>();
    socket.on('message', (data: Buffer) => {
      const message = JSON.parse(data.toString()) as { type: string; id?: number };
      if (message.type === 'reply') replies.get(message.id!)?.(message);
    });
    let id = 0;
    const ask = (params: unknown) =>
      new Promise<unknown>((resolve) => {
        replies.set(++id, resolve);
        socket.send(JSON.stringify({ id, method: 'pluginPanels.request', params }));
      });
    try {
      const refused = { ok: false, error: { code: 'INVALID_ARGUMENT' } };
      expect(await ask({ pluginId: 'coherence', panelId: 'breakdown', method: 'load' })).toMatchObject({
        ok: true,
        result: { value: { workspace: vault, initialized: false, edges: [] } },
      });
      for (const params of [
        { pluginId: 'document', panelId: 'breakdown', method: 'load' },
        { pluginId: 'coherence', panelId: 'nope', method: 'load' },
        { pluginId: 'coherence', panelId: 'breakdown', method: 'toString' },
        { pluginId: 'coherence', panelId: 'breakdown', method: 'resolve' },
        { pluginId: 'coherence', panelId: 'breakdown' },
        { pluginId: 7, panelId: 'breakdown', method: 'load' },
      ]) {
        expect(await ask(params)).toMatchObject(refused);
      }
    } finally {
      socket.close();
    }
  });

  describe('once the plugin is disabled', () => {
    // It writes the enabled state into VMARK_HOME: a host of its own, not the shared one.
    beforeEach(async () => {
      await stop();
      await start();
    });

    it("stops serving a plugin's files", async () => {
      expect((await get(`${module}?token=${served.token}`)).status).toBe(200);
      expect((await plugins('disable')).code).toBe(0);
      await expect.poll(async () => (await get(`${module}?token=${served.token}`)).status).toBe(404);
    });
  });
});
