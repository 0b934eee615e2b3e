import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, realpath, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, TempDirs } from './support/cli.js';
import { sharedChromium } from './support/ui.js';

/*
 * `vmark export` through the built CLI (ADR 75): a note to one self-contained HTML file, opened
 * in Debian Chromium (its image inline, no request leaves the file, no script runs), and to a PDF
 * with the note's text; never over an existing file; a clear line when Chromium is missing.
 */

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
const temp = new TempDirs();
let browser: Browser;
let vault: string;
let home: string;
let note: string;

beforeAll(async () => {
  browser = await sharedChromium();
  vault = await realpath(await temp.make('vmark-export-vault-'));
  const outside = await realpath(await temp.make('vmark-export-outside-'));
  home = await temp.make('vmark-export-home-');
  await mkdir(path.join(vault, 'notes'));
  await mkdir(path.join(vault, 'img'));
  await writeFile(path.join(vault, 'img', 'pixel.png'), PNG);
  await writeFile(path.join(outside, 'secret.png'), PNG);
  note = path.join(vault, 'notes', 'Report.md');
  await writeFile(
    note,
    [
      '# Quarterly report',
      '',
      'Exported **proudly** by vmark.',
      '',
      '![a pixel](../img/pixel.png)',
      '',
      '![[pixel.png]]',
      '',
      `![secret](${path.relative(path.join(vault, 'notes'), path.join(outside, 'secret.png'))})`,
      '',
      '![remote](https://example.com/tracker.png)',
      '',
      '<script>window.ran = 1</script><img src=x onerror="window.ran = 2">',
      '',
    ].join('\n'),
  );
});
afterAll(async () => {
  await temp.cleanup();
});

const vmark = (...args: string[]) => runCli(args, { VMARK_HOME: home });

describe('vmark export --to html', () => {
  it('writes one self-contained file: the images inside the workspace inline, nothing fetched, nothing run', async () => {
    const result = await vmark('export', note, '--to', 'html', '--workspace', vault);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const out = path.join(vault, 'notes', 'Report.html');
    expect(JSON.parse(result.stdout)).toEqual({ exported: out, format: 'html' });
    const html = await readFile(out, 'utf8');
    // Raw HTML is text: no tag of it survives, no handler on any tag.
    expect(html).not.toMatch(/<script|<[^>]*\son[a-z]+=|<link/);
    expect(html).toContain('&#60;script&#62;');

    const page = await browser.newPage();
    const requests: string[] = [];
    page.on('request', (request) => requests.push(request.url()));
    try {
      await page.goto(pathToFileURL(out).href);
      expect(await page.locator('h1').textContent()).toBe('Quarterly report');
      const images = await page.locator('img').evaluateAll((all) =>
        all.map((img) => ({
          alt: img.getAttribute('alt'),
          data: img.getAttribute('src')!.startsWith('data:image/png;base64,'),
          width: (img as HTMLImageElement).naturalWidth,
        })),
      );
      expect(images).toEqual([
        { alt: 'a pixel', data: true, width: 1 },
        { alt: 'pixel.png', data: true, width: 1 },
      ]);
      expect(await page.locator('.image-missing').allTextContents()).toEqual([
        '[image not included: secret]',
        '[image not included: remote]',
      ]);
      expect(await page.evaluate(() => (window as unknown as { ran?: number }).ran)).toBeUndefined();
      // The file itself, and nothing else.
      expect(requests).toEqual([pathToFileURL(out).href]);
    } finally {
      await page.close();
    }
  });

  it('never writes over a file that is there', async () => {
    const out = path.join(vault, 'kept.html');
    await writeFile(out, 'mine');
    const result = await vmark('export', note, '--to', 'html', '--out', out);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^vmark export: .*kept\.html" exists: not overwritten/);
    expect(await readFile(out, 'utf8')).toBe('mine');
  });

  it('without --workspace inlines only what lies beside the note', async () => {
    const out = path.join(vault, 'narrow.html');
    expect((await vmark('export', note, '--to', 'html', '--out', out)).code).toBe(0);
    expect(await readFile(out, 'utf8')).not.toContain('data:image');
  });

  it('refuses a format it does not know, and a missing note, with a line saying why', async () => {
    const format = await vmark('export', note, '--to', 'docx');
    expect(format.code).toBe(2);
    expect(format.stderr).toContain('--to must be html or pdf');
    const missing = await vmark('export', path.join(vault, 'nope.md'), '--to', 'html');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^vmark export: cannot read/);
  });
});

describe('vmark export --to pdf', () => {
  it('prints the note to a PDF through Chromium', async () => {
    const out = path.join(vault, 'report.pdf');
    const result = await vmark('export', note, '--to', 'pdf', '--out', out, '--workspace', vault);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const bytes = await readFile(out);
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(bytes.subarray(-8).toString('latin1')).toContain('%%EOF');
    if (existsSync('/usr/bin/pdftotext')) {
      const { stdout } = await promisify(execFile)('/usr/bin/pdftotext', [out, '-']);
      expect(stdout).toContain('Quarterly report');
      expect(stdout).toContain('Exported proudly by vmark.');
    } else {
      // Without poppler, the document's title (the note's name) is in the file's info dictionary.
      expect(bytes.toString('latin1')).toContain('/Title (Report)');
    }
  });

  it('says which Chromium is missing', async () => {
    const result = await runCli(['export', note, '--to', 'pdf', '--out', path.join(vault, 'no.pdf')], {
      VMARK_HOME: home,
      VMARK_CHROMIUM: path.join(vault, 'no-chromium-here'),
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /^vmark export: PDF export needs Chromium: VMARK_CHROMIUM names .*no-chromium-here/,
    );
    expect(existsSync(path.join(vault, 'no.pdf'))).toBe(false);
  });
});
