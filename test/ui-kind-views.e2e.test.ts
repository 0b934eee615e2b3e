import { createHash } from 'node:crypto';
import { cp, mkdir, realpath, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { call, runCli, TempDirs } from './support/cli.js';
import { connectMcp, launchChromium, type Served, serveWithPage, visibleText } from './support/ui.js';

/*
 * Kind views (ADR 35) through the built CLI, in Debian Chromium: every view comes from the plugin
 * that owns the kind, with CodeMirror one copy in the page (the import map); a kind whose plugin
 * stops shows read-only plain text at once, and a custom view (a test plugin's, loaded from a
 * folder in $VMARK_HOME/plugins by the real plugin loader) is mounted and cleaned up.
 */

const PROBE_PLUGIN = fileURLToPath(new URL('./fixtures/plugins/probe-view', import.meta.url));

const temp = new TempDirs();
let browser: Browser;
let served: Served;
let page: Page;
let client: Client;
let home: string;
let vault: string;

beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await temp.cleanup();
});

beforeEach(async () => {
  vault = await realpath(await temp.make('vmark-views-vault-'));
  home = await temp.make('vmark-views-home-');
  await cp(PROBE_PLUGIN, path.join(home, 'plugins', 'probe-view'), { recursive: true });
  await mkdir(path.join(vault, '.github', 'workflows'), { recursive: true });
  await writeFile(path.join(vault, '.github', 'workflows', 'ci.yml'), 'name: CI\non: push\n');
  await writeFile(path.join(vault, 'Welcome.md'), '# Welcome\n\nSome **bold** words.\n');
  await writeFile(path.join(vault, 'board.probe'), 'alpha\nbeta\n');
  ({ served, page } = await serveWithPage(
    browser,
    ['--workspace', vault, '--open', path.join(vault, 'Welcome.md')],
    home,
  ));
  client = await connectMcp(served);
});
afterEach(async () => {
  await client?.close();
  await page?.close();
  await served?.stop();
});

const shownView = () => page.locator('.editor-host .document-view');
const notice = () => page.locator('.editor-host .view-notice');
const content = () => page.locator('.editor-host .cm-content');
const modeSwitchDisabled = async () =>
  (await page.locator('.mode-switch').getAttribute('class'))?.includes('is-disabled') ?? false;
const bodyCount = (name: string) => page.evaluate((key) => document.body.dataset[key] ?? '0', name);

async function openFromTree(...names: string[]): Promise<void> {
  for (const folder of names.slice(0, -1))
    await page.locator('.tree-folder-row', { hasText: folder }).click();
  await page.locator('.tree-file-row', { hasText: names.at(-1)! }).click();
}

describe('views that plugins contribute', () => {
  it('loads the Markdown view from the document plugin, on the page’s one CodeMirror', async () => {
    await expect.poll(() => content().getAttribute('data-language')).toBe('markdown');
    expect(await shownView().getAttribute('data-view')).toBe('text');
    expect(await page.locator('.cm-editor').getAttribute('class')).toContain('cm-live-preview');
    expect(await notice().isHidden()).toBe(true);
    // The view brings its own styles: a heading is drawn larger than the text in Live mode.
    const fontSize = (selector: string) =>
      page
        .locator(selector)
        .first()
        .evaluate((line) => parseFloat(getComputedStyle(line).fontSize));
    expect(await fontSize('.cm-line.cm-lp-h1')).toBeGreaterThan(await fontSize('.cm-line:not(.cm-lp-h1)'));
    // The view's extensions are of the editor's @codemirror/state: one copy, from the import map.
    const modules = await page.evaluate(() =>
      performance
        .getEntriesByType('resource')
        .map((entry) => new URL(entry.name).pathname)
        .filter((pathname) => pathname.endsWith('.js')),
    );
    expect(modules.filter((m) => m.includes('codemirror-state'))).toEqual(['/assets/codemirror-state.js']);
    expect(modules).toContain('/plugins/document/ui/dist/markdown-view.js');
    // The page asks for the open tab's view while it loads (a modulepreload in its head), and the
    // view's import uses that one fetch: the same URL, token included (ADR 99).
    expect(modules.filter((m) => m.includes('markdown-view'))).toHaveLength(1);
    expect(await (await fetch(served.url)).text()).toContain(
      `<link rel="modulepreload" href="/plugins/document/ui/dist/markdown-view.js?token=${served.token}" />`,
    );
  });

  it('admits the page’s import map by its hash, never by unsafe-inline', async () => {
    const response = await fetch(served.url);
    const page = await response.text();
    const importMap = /<script type="importmap">([^<]*)<\/script>/.exec(page)?.[1] ?? '';
    const hash = createHash('sha256').update(importMap).digest('base64');
    const scriptSrc = (response.headers.get('content-security-policy') ?? '')
      .split('; ')
      .find((directive) => directive.startsWith('script-src'));
    expect(scriptSrc).toBe(`script-src 'self' 'sha256-${hash}'`);
    expect(JSON.parse(importMap)).toMatchObject({
      imports: { '@codemirror/state': `/assets/codemirror-state.js?token=${served.token}` },
    });
  });

  it('shows a workflow read-only as plain text while its plugin is off, and YAML again once it is on', async () => {
    await openFromTree('.github', 'workflows', 'ci.yml');
    await expect.poll(() => content().getAttribute('data-language')).toBe('yaml');
    expect(await modeSwitchDisabled()).toBe(true);
    expect(await content().getAttribute('contenteditable')).toBe('true');

    expect((await runCli(['plugins', 'disable', 'workflow'], { VMARK_HOME: home })).code).toBe(0);
    await expect
      .poll(() => notice().textContent())
      .toContain('No plugin that runs shows “yaml-workflow” documents');
    expect(await notice().isVisible()).toBe(true);
    expect(await shownView().getAttribute('data-view')).toBe('none');
    expect(await content().getAttribute('data-language')).toBeNull();
    expect(await content().getAttribute('contenteditable')).toBe('false');
    expect(await visibleText(page)).toContain('name: CI');
    // Read-only: a keystroke changes nothing, here or on the host.
    await content().click();
    await page.keyboard.type('typed ');
    expect(await visibleText(page)).not.toContain('typed');

    expect((await runCli(['plugins', 'enable', 'workflow'], { VMARK_HOME: home })).code).toBe(0);
    await expect.poll(() => content().getAttribute('data-language')).toBe('yaml');
    expect(await notice().isHidden()).toBe(true);
    expect(await content().getAttribute('contenteditable')).toBe('true');
  });

  it('mounts a custom view for a kind that is not text, follows the text, and cleans it up', async () => {
    await openFromTree('board.probe');
    const board = page.locator('.editor-host .kind-view .probe-board');
    await expect.poll(() => board.locator('li').allTextContents()).toEqual(['alpha', 'beta']);
    expect(await board.getAttribute('data-kind')).toBe('probe');
    expect(await shownView().getAttribute('data-view')).toBe('custom');
    expect(await page.locator('.editor-host .cm-editor').isHidden()).toBe(true);
    expect(await modeSwitchDisabled()).toBe(true);
    expect(await bodyCount('probeMounts')).toBe('1');

    // The host's text reaches the view: an AI client's write shows at once.
    const read = await call(client, 'document', { action: 'read' });
    const write = await call(client, 'document', {
      action: 'write',
      content: 'alpha\nbeta\ngamma\n',
      expected_revision: read.data.revision,
    });
    expect(write.isError).toBe(false);
    await expect.poll(() => board.locator('li').allTextContents()).toEqual(['alpha', 'beta', 'gamma']);

    // Its plugin turned off: the view is cleaned up and the text shown read-only instead.
    expect((await runCli(['plugins', 'disable', 'probe-view'], { VMARK_HOME: home })).code).toBe(0);
    await expect.poll(() => bodyCount('probeCleanups')).toBe('1');
    await expect.poll(() => notice().textContent()).toContain('No plugin that runs shows “probe” documents');
    expect(await visibleText(page)).toContain('gamma');

    // On again, then the tab closed: mounted a second time, and cleaned up with the tab.
    expect((await runCli(['plugins', 'enable', 'probe-view'], { VMARK_HOME: home })).code).toBe(0);
    await expect.poll(() => bodyCount('probeMounts')).toBe('2');
    await page.locator('.tab', { hasText: 'board' }).locator('.tab-close').click();
    await expect.poll(() => bodyCount('probeCleanups')).toBe('2');
    expect(await page.locator('.editor-host .probe-board').count()).toBe(0);
  });
});
