/**
 * Export of a note (ADR 75): one self-contained HTML file (its CSS inline, its images inlined as
 * `data:` URIs from inside the workspace only, no script, a CSP that lets it fetch nothing), or a
 * PDF printed from that HTML by Chromium through playwright-core.
 */
import { constants } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { errorCode, imageTypeOf, MAX_IMAGE_BYTES } from '@vmark/sdk';
import { escapeHtml, markdownToHtml } from './markdown-html.js';

export type ExportFormat = 'html' | 'pdf';

/** An export that could not be made, and why, for the person. */
export class ExportFailed extends Error {}

/** What the export may read beside the note. */
export interface ExportScope {
  /** The canonical path of a file the export may read, or a refusal (any throw). */
  resolve(file: string): Promise<string>;
  /** The file a wikilink embed names, or null (found by name, as the editor finds it). */
  embed(name: string): Promise<string | null>;
}

const STYLE = `
:root { color-scheme: light; }
body { max-width: 46rem; margin: 2.5rem auto; padding: 0 1.25rem; font: 16px/1.7 system-ui, -apple-system, "Segoe UI", "Noto Sans", "Noto Sans CJK SC", sans-serif; color: #1f2328; }
h1, h2, h3, h4, h5, h6 { line-height: 1.3; margin: 1.6em 0 0.6em; }
h1 { font-size: 1.9em; } h2 { font-size: 1.45em; } h3 { font-size: 1.2em; }
a { color: #0b62d6; }
code { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; font-size: 0.9em; background: #f2f2ef; padding: 0.1em 0.3em; border-radius: 4px; }
pre { background: #f6f6f3; padding: 0.8em 1em; overflow-x: auto; border-radius: 6px; }
pre code { background: none; padding: 0; }
blockquote { margin: 1em 0; padding-left: 1em; border-left: 3px solid #d0d7de; color: #57606a; }
table { border-collapse: collapse; margin: 1em 0; }
th, td { border: 1px solid #d0d7de; padding: 0.35em 0.7em; }
img { max-width: 100%; }
.image-missing { color: #8a8f98; font-style: italic; }
@media print { body { margin: 0 auto; } a { color: inherit; } }
`;

/** The note as one self-contained HTML page. */
export async function noteHtml(
  text: string,
  title: string,
  notePath: string,
  scope: ExportScope,
): Promise<string> {
  const images = new Map<string, string>();
  const wanted: { key: string; src: string; embed: boolean }[] = [];
  // The renderer is synchronous: images are collected first, read, then put in place.
  const body = markdownToHtml(text, {
    image: (src, alt, embed) => {
      const key = `\u0000image-${wanted.length}\u0000`;
      wanted.push({ key, src, embed });
      images.set(key, escapeHtml(alt));
      return key;
    },
  });
  let html = body;
  for (const { key, src, embed } of wanted) {
    const alt = images.get(key)!;
    const data = await inlineImage(src, embed, notePath, scope);
    const tag =
      data === null
        ? `<span class="image-missing">[image not included: ${alt || escapeHtml(src)}]</span>`
        : `<img src="${data}" alt="${alt}">`;
    html = html.replace(key, () => tag);
  }
  return [
    '<!doctype html>',
    '<html>',
    '<head>',
    '<meta charset="utf-8">',
    // Nothing in the file may fetch or run anything: its images are inside it.
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'unsafe-inline'">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(title)}</title>`,
    `<style>${STYLE}</style>`,
    '</head>',
    '<body>',
    html.trimEnd(),
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

/** The image as a `data:` URI, or null when it is remote, outside the scope, no image or too large. */
async function inlineImage(
  src: string,
  embed: boolean,
  notePath: string,
  scope: ExportScope,
): Promise<string | null> {
  let file: string | null;
  if (embed) file = await scope.embed(src).catch(() => null);
  else {
    if (/^[a-z][a-z0-9+.-]*:/i.test(src) || src.startsWith('//')) return null;
    let relative = src.replace(/[?#].*$/s, '');
    try {
      relative = decodeURIComponent(relative);
    } catch {
      // As written.
    }
    file = path.resolve(path.dirname(notePath), relative);
  }
  if (file === null) return null;
  const real = await scope.resolve(file).catch(() => null);
  const type = real === null ? null : imageTypeOf(path.basename(real));
  if (real === null || type === null || imageTypeOf(path.basename(file)) === null) return null;
  const bytes = await readImage(real);
  return bytes === null ? null : `data:${type};base64,${bytes.toString('base64')}`;
}

/** A regular file's bytes, up to the bound; null otherwise. */
async function readImage(file: string): Promise<Buffer | null> {
  const handle = await fs
    .open(file, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0))
    .catch(() => null);
  if (handle === null) return null;
  try {
    const stats = await handle.stat();
    if (!stats.isFile() || stats.size > MAX_IMAGE_BYTES) return null;
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}

/** The file an export writes by default: beside the note, its name with the format's extension. */
export function besideNote(notePath: string, format: ExportFormat): string {
  const parsed = path.parse(notePath);
  return path.join(parsed.dir, `${parsed.name}.${format}`);
}

/**
 * Writes `data` to `target`, or, when something is there and `overwrite` is off, refuses
 * (`EXISTS`); never replaces a file between the look and the write (the create is exclusive).
 */
export async function writeExport(
  target: string,
  data: string | Uint8Array,
  overwrite: boolean,
): Promise<void> {
  const temp = path.join(path.dirname(target), `.${path.basename(target)}.${process.pid}.${Date.now()}.tmp`);
  await fs.writeFile(temp, data, { flag: 'wx' });
  try {
    if (overwrite) await fs.rename(temp, target);
    else await fs.link(temp, target);
  } catch (error) {
    if (errorCode(error) === 'EEXIST')
      throw new ExportFailed(`${JSON.stringify(target)} exists: not overwritten (choose another --out)`);
    throw error;
  } finally {
    if (!overwrite) await fs.rm(temp, { force: true });
  }
}

/** The first free name among `target`, `name 1.ext`, `name 2.ext`, …: the editor's export never asks to overwrite. */
export async function freeName(target: string): Promise<string> {
  const parsed = path.parse(target);
  for (let n = 0; n < 1000; n++) {
    const candidate = n === 0 ? target : path.join(parsed.dir, `${parsed.name} ${n}${parsed.ext}`);
    const taken = await fs.lstat(candidate).then(
      () => true,
      () => false,
    );
    if (!taken) return candidate;
  }
  throw new ExportFailed(`No free name for ${JSON.stringify(target)}`);
}

/** The Chromium to print with (DESIGN §7): `VMARK_CHROMIUM`, then Debian's, else a clear error. */
export async function chromiumForPdf(env: NodeJS.ProcessEnv = process.env): Promise<string> {
  const candidates = env.VMARK_CHROMIUM
    ? [env.VMARK_CHROMIUM]
    : ['/usr/bin/chromium', '/usr/bin/chromium-browser'];
  for (const candidate of candidates) {
    if (
      await fs.access(candidate, constants.X_OK).then(
        () => true,
        () => false,
      )
    )
      return candidate;
  }
  throw new ExportFailed(
    env.VMARK_CHROMIUM
      ? `PDF export needs Chromium: VMARK_CHROMIUM names ${JSON.stringify(env.VMARK_CHROMIUM)}, which is not an executable program`
      : 'PDF export needs Chromium: none at /usr/bin/chromium. Install it (Debian/Ubuntu: apt-get install chromium) or set VMARK_CHROMIUM to its path',
  );
}

/** Prints the HTML to PDF in a headless Chromium with no network (the page needs none). */
export async function htmlToPdf(html: string, env: NodeJS.ProcessEnv = process.env): Promise<Buffer> {
  const executablePath = await chromiumForPdf(env);
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({
    executablePath,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
  try {
    const context = await browser.newContext({ javaScriptEnabled: false, offline: true });
    const page = await context.newPage();
    await page.route('**/*', (route) => route.abort());
    await page.setContent(html, { waitUntil: 'load' });
    return await page.pdf({
      format: 'A4',
      printBackground: true,
      margin: { top: '18mm', bottom: '18mm', left: '16mm', right: '16mm' },
    });
  } finally {
    await browser.close();
  }
}

/** The exported bytes of a note. */
export async function exportNote(
  text: string,
  notePath: string,
  format: ExportFormat,
  scope: ExportScope,
): Promise<string | Buffer> {
  const html = await noteHtml(text, path.parse(notePath).name, notePath, scope);
  return format === 'html' ? html : htmlToPdf(html);
}
