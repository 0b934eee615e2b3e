import { mkdir, readdir, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { TempDirs } from './support/cli.js';
import { launchChromium, type Served, serveWithPage } from './support/ui.js';

/*
 * Links as a person uses them (issue 19 item 5, ADR 76): `vmark serve` on a small vault in Debian
 * Chromium; Ctrl+click on each link form (a Markdown link, [[note]], [[note#heading]],
 * [[note|alias]]), a missing note made and opened, an external link opened outside the editor's
 * page, "Follow link" (Ctrl+Enter) at the cursor; links that lead out of the workspace refused
 * with a notice and nothing made; the Outline panel following the typing and jumping; the
 * Backlinks panel following a note that gains a link on disk.
 */

const temp = new TempDirs();
let browser: Browser;
let served: Served;
let vault: string;
let page: Page;

const WELCOME = [
  '# Welcome',
  '',
  'A [markdown link](notes/alpha.md) here.',
  'A [[beta]] wikilink.',
  'A [[beta#Second part]] heading link.',
  'An [[beta|alias link]] here.',
  'A [[Brand new]] missing note.',
  'An [external](https://example.com/page) link.',
  'A [climbing](../../etc/passwd) link.',
  'A [[/etc/passwd]] absolute one.',
  'A [nul](bad%00name) one.',
  '',
].join('\n');
const ALPHA = '# Alpha\n\nBody.\n';
const BETA = '# Beta\n\nfirst\n\n## Second part\n\nmore\n';

beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await temp.cleanup();
});

beforeEach(async () => {
  vault = await realpath(await temp.make('vmark-ui-links-vault-'));
  const home = await temp.make('vmark-ui-links-home-');
  await mkdir(path.join(vault, 'notes'));
  await writeFile(path.join(vault, 'Welcome.md'), WELCOME);
  await writeFile(path.join(vault, 'notes', 'alpha.md'), ALPHA);
  await writeFile(path.join(vault, 'notes', 'beta.md'), BETA);
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

const activeTab = () => page.locator('.tab.is-active .tab-title');
const tab = (title: string) => page.locator('.tab', { hasText: title });
const link = (text: string) => page.locator('.editor-host .cm-content .cm-md-link', { hasText: text });
const notice = () => page.locator('.cm-tooltip.cm-link-notice');
const lineOf = (text: string) => page.locator('.editor-host .cm-line', { hasText: text });

const editorHasFocus = () =>
  page.evaluate(() => document.activeElement?.classList.contains('cm-content') === true);

async function follow(text: string): Promise<void> {
  await link(text)
    .first()
    .click({ modifiers: ['Control'] });
}

async function backToWelcome(): Promise<void> {
  await tab('Welcome').click();
  await expect.poll(() => activeTab().textContent()).toBe('Welcome');
  await link('markdown link').waitFor();
}

/** Every file of the vault, relative, sorted. */
async function vaultFiles(): Promise<string[]> {
  const entries = await readdir(vault, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => path.relative(vault, path.join(e.parentPath, e.name)))
    .sort();
}

describe('following links', () => {
  it('follows a Markdown link, [[note]], [[note#heading]] and [[note|alias]] with Ctrl+click', async () => {
    await follow('markdown link');
    await expect.poll(() => activeTab().textContent()).toBe('alpha');

    await backToWelcome();
    await follow('beta');
    await expect.poll(() => activeTab().textContent()).toBe('beta');

    await backToWelcome();
    // In Live mode an alias link shows its alias alone.
    expect(await link('alias link').first().innerText()).toBe('alias link');
    await follow('alias link');
    await expect.poll(() => activeTab().textContent()).toBe('beta');

    await backToWelcome();
    await follow('beta#Second part');
    await expect.poll(() => activeTab().textContent()).toBe('beta');
    // The cursor is at the heading (Live shows the marks of the line being edited, and the editor has
    // the keys): what is typed lands at its line's start.
    await expect.poll(() => lineOf('Second part').innerText()).toBe('## Second part');
    await expect.poll(() => editorHasFocus()).toBe(true);
    await page.keyboard.type('X');
    await expect.poll(() => lineOf('Second part').innerText()).toBe('X## Second part');
  });

  it('makes a missing note next to the linking one and opens it', async () => {
    await follow('Brand new');
    await expect.poll(() => activeTab().textContent()).toBe('Brand new');
    expect(await readFile(path.join(vault, 'Brand new.md'), 'utf8')).toBe('');
    // Followed again, the link finds the note it made.
    await backToWelcome();
    await follow('Brand new');
    await expect.poll(() => activeTab().textContent()).toBe('Brand new');
    expect(await page.locator('.tab', { hasText: 'Brand new' }).count()).toBe(1);
  });

  it('opens an external link outside the editor, whose page stays where it is', async () => {
    await page
      .context()
      .route('https://example.com/**', (route) =>
        route.fulfill({ contentType: 'text/html', body: '<title>outside</title>' }),
      );
    const editorUrl = page.url();
    const opened = page.waitForEvent('popup');
    await follow('external');
    const popup = await opened;
    await popup.waitForURL('https://example.com/page');
    expect(page.url()).toBe(editorUrl);
    expect(await activeTab().textContent()).toBe('Welcome');
    // noopener: the new page has no way back to the editor's.
    expect(await popup.evaluate(() => window.opener === null)).toBe(true);
    await popup.close();
  });

  it('follows the link at the cursor with Ctrl+Enter', async () => {
    await link('markdown link').first().click();
    await page.keyboard.press('Control+Enter');
    await expect.poll(() => activeTab().textContent()).toBe('alpha');
  });

  it('refuses links that lead out of the workspace, look absolute or hold a NUL, and makes nothing', async () => {
    const before = await vaultFiles();
    await follow('climbing');
    await expect.poll(() => notice().textContent()).toContain('leads out of the workspace');
    await follow('/etc/passwd');
    await expect.poll(() => notice().textContent()).toContain('absolute path');
    await follow('nul');
    await expect.poll(() => notice().textContent()).toContain('NUL');
    expect(await vaultFiles()).toEqual(before);
    expect(await page.locator('.tab').count()).toBe(1);
    expect(await activeTab().textContent()).toBe('Welcome');
  });
});

describe('the Outline and Backlinks panels', () => {
  const rows = (panel: string) =>
    page.locator(`.plugin-panel[data-plugin-id=document][data-panel-id=${panel}] .links-panel-text`);
  const show = (panel: string) => page.locator(`.tool-button[data-plugin-panel="document/${panel}"]`).click();

  it('outlines the note as it is typed, and jumps to a heading', async () => {
    await show('outline');
    await expect.poll(() => rows('outline').allTextContents()).toEqual(['Welcome']);
    await page.locator('.editor-host .cm-content').click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type('\n## Typed heading\n\nText.');
    await expect.poll(() => rows('outline').allTextContents()).toEqual(['Welcome', 'Typed heading']);

    await rows('outline').filter({ hasText: 'Welcome' }).click();
    await expect.poll(() => lineOf('Welcome').first().innerText()).toBe('# Welcome');
    await expect.poll(() => editorHasFocus()).toBe(true);
    await page.keyboard.type('Y');
    await expect.poll(() => lineOf('Welcome').first().innerText()).toBe('Y# Welcome');
  });

  it('lists the notes that link here, follows a note that gains a link on disk, and opens at the link', async () => {
    await tab('Welcome').waitFor();
    await follow('beta');
    await expect.poll(() => activeTab().textContent()).toBe('beta');
    await show('backlinks');
    // Welcome links to beta three times: [[beta]], [[beta#Second part]], [[beta|alias link]].
    await expect
      .poll(() => rows('backlinks').allTextContents())
      .toEqual(['Welcome.md', 'Welcome.md', 'Welcome.md']);

    await writeFile(path.join(vault, 'notes', 'gamma.md'), '# Gamma\n\nSee [[beta]] too.\n');
    await expect
      .poll(() => rows('backlinks').allTextContents())
      .toEqual(['Welcome.md', 'Welcome.md', 'Welcome.md', 'notes/gamma.md']);

    await rows('backlinks').filter({ hasText: 'notes/gamma.md' }).click();
    await expect.poll(() => activeTab().textContent()).toBe('gamma');
    await expect.poll(() => page.evaluate(() => window.getSelection()?.toString())).toBe('[[beta]]');
  });
});
