#!/usr/bin/env node
/**
 * Refreshes the README's screenshots in docs/images/: the editor in live preview and in source mode, a
 * note in the light and the dark theme, the plugin manager, an approval dialog, an AI's browser tab in
 * the editor (of a page served here) and a note with a table, math, tasks, a callout and a diagram in
 * Live mode. Runs the built `vmark serve` on a temporary copy of
 * examples/vault and shows it in Chromium (Debian's /usr/bin/chromium, or VMARK_CHROMIUM) through
 * playwright-core. `npm run screenshots` builds first.
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { chromium } from 'playwright-core';
import { build } from 'rolldown';

const REPO = fileURLToPath(new URL('..', import.meta.url));
const CLI = path.join(REPO, 'core', 'dist', 'bundle', 'main.js');
const IMAGES = path.join(REPO, 'docs', 'images');
const PANEL_SHOTS = path.join(REPO, 'test', 'support', 'screenshots.ts');

/** `vmark serve` on `vault`: the page URL it prints first and the MCP endpoint it names next. */
async function startServe(vault, home) {
  const child = spawn(
    process.execPath,
    [CLI, 'serve', '--workspace', vault, '--open', path.join(vault, 'Welcome.md')],
    { env: { ...process.env, VMARK_HOME: home }, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const lines = createInterface({ input: child.stdout });
  const [url, second] = await new Promise((resolve, reject) => {
    const got = [];
    lines.on('line', (line) => {
      got.push(line);
      if (got.length === 2) resolve(got);
    });
    child.once('exit', (code) => reject(new Error(`vmark serve exited with ${code}`)));
  });
  const mcpUrl = /(http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(second)?.[1];
  if (!mcpUrl) throw new Error(`vmark serve named no MCP endpoint: ${second}`);
  const stop = () =>
    new Promise((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  return { url, token: new URL(url).searchParams.get('token'), mcpUrl, stop };
}

/** The editor with the example vault's notes folder open, the cursor on a heading so its marks show. */
async function editorShots(page) {
  await page.locator('.tree-folder-row', { hasText: 'notes' }).click();
  await page.locator('.tree-file-row').first().waitFor();
  await page.locator('.cm-line', { hasText: 'What is in here' }).click();
  await page.click('.mode-switch [data-mode=wysiwyg]');
  await page.screenshot({ path: path.join(IMAGES, 'editor-wysiwyg.png') });
  await page.click('.mode-switch [data-mode=source]');
  await page.screenshot({ path: path.join(IMAGES, 'editor-source.png') });
  await page.click('.mode-switch [data-mode=wysiwyg]');
}

/**
 * A mixed CJK and Latin note in Live mode, light and dark (the Theme setting on System, the system's
 * preference emulated), the status bar's counts below; the dark one with find and replace open.
 */
async function themeShots(page) {
  await page.locator('.tree-file-row', { hasText: '中文筆記' }).click();
  await page.locator('.cm-line', { hasText: '今天學到的' }).click();
  await page.locator('.status-count').filter({ hasText: 'words' }).waitFor();
  await page.emulateMedia({ colorScheme: 'light' });
  await page.locator('html[data-theme=light]').waitFor();
  await page.screenshot({ path: path.join(IMAGES, 'editor-light.png') });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.locator('html[data-theme=dark]').waitFor();
  await page.keyboard.press('Control+F');
  await page.keyboard.type('MCP');
  await page.locator('.find-count').filter({ hasText: 'matches' }).waitFor();
  await page.screenshot({ path: path.join(IMAGES, 'editor-dark.png') });
  await page.keyboard.press('Escape');
  await page.emulateMedia({ colorScheme: 'light' });
  await page.locator('html[data-theme=light]').waitFor();
}

/**
 * The plugin manager and approval dialog shots live beside the end-to-end tests that drive the same
 * panels (test/support/screenshots.ts); Node runs no TypeScript, so rolldown compiles that module first.
 */
async function loadPanelShots(temp) {
  const file = path.join(temp, 'panel-screenshots.mjs');
  await build({
    input: PANEL_SHOTS,
    platform: 'node',
    logLevel: 'silent',
    external: [/^node:/, /^playwright-core/, /^@modelcontextprotocol\//],
    output: { file, format: 'esm' },
  });
  const module = await import(pathToFileURL(file).href);
  return module;
}

/** The page of the browser tab shot, on 127.0.0.1 (the host started after this may reach it). */
async function servePage(html) {
  const server = createServer((_req, res) => {
    res.setHeader('content-type', 'text/html');
    res.end(html);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  process.env.VMARK_BROWSER_ALLOW_PRIVATE = '1';
  return { url: `http://127.0.0.1:${server.address().port}/`, close: () => server.close() };
}

async function main() {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` first`);
  const temp = await realpath(await mkdtemp(path.join(os.tmpdir(), 'vmark-screenshots-')));
  const vault = path.join(temp, 'vault');
  const outside = path.join(temp, 'another-vault');
  await cp(path.join(REPO, 'examples', 'vault'), vault, { recursive: true });
  await mkdir(outside);
  await mkdir(path.join(temp, 'home'));
  await mkdir(IMAGES, { recursive: true });

  const shots = await loadPanelShots(temp);
  // The rich Live mode shot's note, beside the example vault's own (ADR 73).
  await writeFile(path.join(vault, 'Rich.md'), shots.RICH_SHOT_NOTE);
  const shown = await servePage(shots.BROWSER_SHOT_PAGE);
  const served = await startServe(vault, path.join(temp, 'home'));
  const browser = await chromium.launch({
    executablePath: process.env.VMARK_CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
  // The rich note's image: a picture drawn here, so that nothing of it is fetched or committed.
  const art = await browser.newPage({ viewport: { width: 360, height: 120 } });
  await art.setContent(
    '<body style="margin:0;height:120px;background:linear-gradient(100deg,#3b4a5a,#7d8fa3 60%,#c9b79c)">' +
      '<p style="margin:0;padding:44px 24px;font:600 24px sans-serif;color:#fff">Basalt, 388 g</p></body>',
  );
  await art.screenshot({ path: path.join(vault, 'specimen.png') });
  await art.close();
  const client = new Client({ name: 'vmark-screenshots', version: '1.0.0' });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(served.url);
    await page.locator('.editor-host .cm-content').waitFor();
    await editorShots(page);
    await themeShots(page);
    await client.connect(
      new StreamableHTTPClientTransport(new URL(served.mcpUrl), {
        requestInit: { headers: { Authorization: `Bearer ${served.token}` } },
      }),
    );
    await shots.takePanelScreenshots(page, IMAGES, { client, folder: outside });
    await shots.takeBrowserTabScreenshot(page, IMAGES, client, shown.url);
    await shots.takeRichLiveScreenshot(page, IMAGES);
    const names = [
      'editor-wysiwyg.png',
      'editor-source.png',
      'editor-light.png',
      'editor-dark.png',
      'plugin-manager.png',
      'approval-dialog.png',
      'browser-tab-view.png',
      'browser-click-approval.png',
      'browser-activity.png',
      'editor-rich-live.png',
    ];
    process.stdout.write(`${names.map((name) => path.join('docs', 'images', name)).join('\n')}\n`);
  } finally {
    await client.close().catch(() => undefined);
    await browser.close();
    await served.stop();
    shown.close();
    await rm(temp, { recursive: true, force: true });
  }
}

main().catch((error) => {
  process.stderr.write(
    `screenshots: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
