import { mkdir, readdir, readFile, realpath, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, TempDirs } from './support/cli.js';
import { connectMcp, launchChromium, type Served, serveWithPage, visibleText } from './support/ui.js';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';

/*
 * Images in the editor (ADR 74) as a person meets them, through the built CLI in Debian
 * Chromium: a note's image and a wikilink embed shown in Live mode, a remote image held back until
 * remote content is allowed, a pasted image saved into the attachments folder and linked, a huge
 * paste refused with a notice while the editor goes on, an SVG whose script never runs, and a
 * link that climbs out of the workspace not served.
 */

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
const EVIL_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" width="20" height="20">' +
  '<script>try { top.pwned = 1 } catch (e) {} window.pwned = 1</script><rect width="20" height="20"/></svg>';

const temp = new TempDirs();
let browser: Browser;
let served: Served;
let page: Page;
let client: Client;
let vault: string;
let remote: Server;
let remoteHits = 0;
/** The note's link to a file outside the workspace, `../../…/secret.png`. */
let escape: string;

beforeAll(async () => {
  browser = await launchChromium();
  remote = createServer((_request, response) => {
    remoteHits++;
    response.writeHead(200, { 'content-type': 'image/png' });
    response.end(PNG);
  });
  await new Promise<void>((resolve) => remote.listen(0, '127.0.0.1', resolve));
  const remoteUrl = `http://127.0.0.1:${(remote.address() as AddressInfo).port}/remote.png`;

  vault = await realpath(await temp.make('vmark-images-vault-'));
  const outside = await realpath(await temp.make('vmark-images-outside-'));
  const home = await temp.make('vmark-images-home-');
  await writeFile(path.join(outside, 'secret.png'), PNG);
  await mkdir(path.join(vault, 'notes'));
  await mkdir(path.join(vault, 'img', 'deep'), { recursive: true });
  await writeFile(path.join(vault, 'notes', 'pic.png'), PNG);
  await writeFile(path.join(vault, 'img', 'deep', 'embedded.png'), PNG);
  await writeFile(path.join(vault, 'evil.svg'), EVIL_SVG);
  await writeFile(
    path.join(home, 'settings.json'),
    JSON.stringify({ images: { attachmentFolder: 'attachments' } }),
  );
  escape = path.relative(path.join(vault, 'notes'), path.join(outside, 'secret.png'));
  await writeFile(
    path.join(vault, 'notes', 'note.md'),
    [
      '# Images',
      '',
      '![a pixel](pic.png)',
      '',
      '![[embedded.png]]',
      '',
      `![far away](${remoteUrl})`,
      '',
      '![the svg](../evil.svg)',
      '',
      `![escape](${escape})`,
      '',
      'The end.',
      '',
    ].join('\n'),
  );
  ({ served, page } = await serveWithPage(
    browser,
    ['--workspace', vault, '--open', path.join(vault, 'notes', 'note.md')],
    home,
  ));
  client = await connectMcp(served);
  await page.click('.mode-switch [data-mode=wysiwyg]');
});
afterAll(async () => {
  await client?.close();
  await page?.close();
  await served?.stop();
  await browser?.close();
  await new Promise((resolve) => remote?.close(resolve));
  await temp.cleanup();
});

const image = (alt: string) => page.locator(`.cm-lp-image[alt="${alt}"]`);
/** Whether the image has loaded and decoded: its width as the browser knows it. */
const loadedWidth = (alt: string) =>
  image(alt).evaluate((img: HTMLImageElement) => (img.complete ? img.naturalWidth : 0));

describe('Live mode', () => {
  it('shows an image linked relative to the note', async () => {
    await expect.poll(() => loadedWidth('a pixel')).toBeGreaterThan(0);
    // The source of a line not being edited is replaced by the image.
    expect(await visibleText(page)).not.toContain('![a pixel]');
  });

  it('shows a wikilink embed found by name elsewhere in the workspace', async () => {
    await expect.poll(() => loadedWidth('embedded.png')).toBeGreaterThan(0);
  });

  it('holds a remote image back with a placeholder saying why, until remote content is allowed', async () => {
    const placeholder = page.locator('.cm-lp-image-notice', { hasText: 'Remote image not loaded' });
    await placeholder.waitFor();
    expect(remoteHits).toBe(0);
    await page.click('.tool-button[data-action=settings]');
    const row = page.locator('.setting-row[data-setting-key="images.allowRemote"]');
    await row.locator('input[role=switch]').click();
    await row.locator('input[role=switch]:checked:not(:disabled)').waitFor();
    await page.keyboard.press('Escape');
    await expect.poll(() => loadedWidth('far away')).toBeGreaterThan(0);
    expect(remoteHits).toBeGreaterThan(0);
  });

  it('shows an SVG as an image whose script never runs, in the page or opened on its own', async () => {
    await expect.poll(() => loadedWidth('the svg')).toBeGreaterThan(0);
    expect(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined();
    const src = await image('the svg').getAttribute('src');
    const alone = await browser.newPage();
    try {
      const response = await alone.goto(new URL(src!, served.url).href);
      expect(response?.headers()['content-type']).toBe('image/svg+xml');
      expect(response?.headers()['content-security-policy']).toContain('sandbox');
      expect(await alone.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined();
    } finally {
      await alone.close();
    }
  });

  it('does not show an image whose link climbs out of the workspace', async () => {
    await page.locator('.cm-lp-image-notice', { hasText: 'Image not shown: escape' }).waitFor();
    expect(await image('escape').count()).toBe(0);
    // The notice is the view's, never text of the note.
    expect((await call(client, 'document', { action: 'read' })).text).not.toContain('Image not shown');
    // The page's own request, as the image would make it: refused by the path guard.
    const status = await page.evaluate(async (asked) => {
      const token = new URLSearchParams(location.search).get('token') ?? '';
      const response = await fetch(`/vault/file?path=${encodeURIComponent(asked)}&token=${token}`);
      return response.status;
    }, `${vault}/notes/${escape}`);
    expect(status).toBe(403);
  });
});

/** Pastes `bytes` as an image file into the editor, as the clipboard would. */
function paste(bytes: number[] | number, name: string): Promise<void> {
  return page.evaluate(
    ({ bytes, name }) => {
      const data = typeof bytes === 'number' ? new Uint8Array(bytes) : new Uint8Array(bytes);
      const transfer = new DataTransfer();
      transfer.items.add(new File([data], name, { type: 'image/png' }));
      const content = document.querySelector('.editor-host .cm-content')!;
      content.dispatchEvent(
        new ClipboardEvent('paste', { clipboardData: transfer, bubbles: true, cancelable: true }),
      );
    },
    { bytes, name },
  );
}

describe('pasting an image', () => {
  it('saves it in the attachments folder under a new name and inserts its link at the cursor', async () => {
    await page.locator('.editor-host .cm-content').click();
    await page.keyboard.press('Control+End');
    await paste([...PNG], 'image.png');
    await page.locator('.cm-image-status', { hasText: 'Image saved' }).waitFor();
    const saved = await readdir(path.join(vault, 'attachments'));
    expect(saved).toHaveLength(1);
    expect(saved[0]).toMatch(/^Pasted image \d{14}\.png$/);
    expect(await readFile(path.join(vault, 'attachments', saved[0]!))).toEqual(PNG);
    const link = `![](../attachments/${saved[0]!.replaceAll(' ', '%20')})`;
    await expect.poll(() => visibleText(page)).toContain(link);
    const read = await call(client, 'document', { action: 'read' });
    expect(read.text).toContain(link);
  });

  it('refuses a 50 MB image with a notice, sending nothing, and the editor goes on', async () => {
    await paste(50 * 1024 * 1024, 'huge.png');
    await page.locator('.cm-image-status', { hasText: 'Image not saved: it is 50.0 MB' }).waitFor();
    expect(await readdir(path.join(vault, 'attachments'))).toHaveLength(1);
    await page.keyboard.type(' still typing');
    await expect.poll(() => visibleText(page)).toContain('still typing');
  });
});

describe('exporting from the palette', () => {
  it('"Export to HTML" writes the note beside it with its images inline, under a new name the second time', async () => {
    const palette = page.locator('dialog.command-palette');
    const run = async () => {
      await page.locator('.editor-host .cm-content').click();
      await page.keyboard.press('Control+Shift+P');
      await palette.locator('input').fill('export to html');
      await palette.locator('.command-palette-item[data-command-id="document.exportHtml"]').waitFor();
      await page.keyboard.press('Enter');
    };
    await run();
    const first = path.join(vault, 'notes', 'note.html');
    await page.locator('.toast', { hasText: `Exported to ${first}` }).waitFor();
    const html = await readFile(first, 'utf8');
    expect(html).toContain('<img src="data:image/png;base64,');
    expect(html).toContain('alt="a pixel"');
    // The pasted image, in the unsaved text the editor holds, is exported too.
    expect(html.match(/<img src="data:image\/png;base64,/g)?.length).toBeGreaterThanOrEqual(3);
    await run();
    await page
      .locator('.toast', { hasText: `Exported to ${path.join(vault, 'notes', 'note 1.html')}` })
      .waitFor();
    expect(await readFile(first, 'utf8')).toBe(html);
  });
});
