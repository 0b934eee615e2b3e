/**
 * The workspace's images for the editor page (ADR 74): `GET /vault/file?path=ABS` and
 * `GET /vault/embed?note=ABS&name=NAME` (a wikilink embed, found by name as Obsidian does), and
 * `POST /vault/attachment?note=ABS&folder=SETTING&type=MIME` (a pasted or dropped image).
 *
 * Every request has passed the `RequestGuard` (Host, Origin, the page token). A file is served
 * only when the vault's path guard admits it (the workspace roots and open documents' folders;
 * never `.vmark/` or `$VMARK_HOME`; no symlink out), only when both the name asked for and the
 * real file carry an image extension of the allow-list, only a regular file, only up to
 * `MAX_IMAGE_BYTES`. The response says its type, `nosniff`, and a sandboxing CSP: an SVG opened
 * as a page runs nothing; the editor shows it through `<img>`, where no script runs either.
 */
import fs from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { errorCode, IMAGE_TYPES, imageTypeOf, isDomainError, MAX_IMAGE_BYTES } from '@vmark/sdk';
import { stageFile } from '../../vault/atomic-write.js';
import { openRegularFile, readWholeFile } from '../../vault/open-regular-file.js';
import { isWithinRoot } from '../../vault/path-scope.js';
import { wikilinkFile } from './wikilink-file.js';

/** What an image response carries besides its type: nothing in it may run or be sniffed. */
export const IMAGE_HEADERS: Readonly<Record<string, string>> = {
  'x-content-type-options': 'nosniff',
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; sandbox",
  'cross-origin-resource-policy': 'same-origin',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
};

/** What the route needs of the host: the path guard and the files of a workspace root. */
export interface VaultImagesHost {
  /** The vault's path guard: the canonical path, or a refusal (`INVALID_PATH`). */
  resolve(input: string): Promise<string>;
  roots(): readonly string[];
  /** The files of a workspace root, `/`-separated and relative to it (quick open's index). */
  filesOf(root: string): Promise<Iterable<string>>;
}

type Answer =
  | { readonly status: 200; readonly type: string; readonly body: Buffer }
  | { readonly status: 400 | 403 | 404 | 413 | 415 | 500; readonly reason: string };

export function isVaultImagePath(pathname: string): boolean {
  return pathname.startsWith('/vault/');
}

export class VaultImages {
  constructor(private readonly host: VaultImagesHost) {}

  /** Answers one request under `/vault/`; the guard has already let it through. */
  async handle(request: IncomingMessage, response: ServerResponse, url: URL): Promise<void> {
    if (url.pathname === '/vault/attachment') {
      if (request.method !== 'POST') return refuse(response, 405, 'Method not allowed');
      const saved = await this.saveAttachment(request, url).catch((error: unknown): Answer => ({
        status: 500,
        reason: message(error),
      }));
      if ('reason' in saved) {
        request.resume();
        return refuse(response, saved.status, saved.reason, saved.status === 413);
      }
      response.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
      response.end(saved.body);
      return;
    }
    request.resume();
    if (request.method !== 'GET' && request.method !== 'HEAD')
      return refuse(response, 405, 'Method not allowed');
    const answer = await this.read(url).catch((error: unknown): Answer => ({
      status: 500,
      reason: message(error),
    }));
    if ('reason' in answer) return refuse(response, answer.status, answer.reason);
    response.writeHead(200, {
      ...IMAGE_HEADERS,
      'content-type': answer.type,
      'content-length': answer.body.length,
    });
    response.end(request.method === 'HEAD' ? undefined : answer.body);
  }

  /** The image a GET names, or why not. */
  async read(url: URL): Promise<Answer> {
    let asked: string | null;
    if (url.pathname === '/vault/file') asked = url.searchParams.get('path');
    else if (url.pathname === '/vault/embed') asked = await this.#embed(url);
    else return { status: 404, reason: 'Not found' };
    if (asked === null || !path.isAbsolute(asked))
      return { status: 404, reason: 'No such image in the workspace' };
    if (imageType(asked) === null) return { status: 415, reason: 'Not an image type the editor shows' };
    const real = await this.#guarded(asked);
    if (typeof real !== 'string') return real;
    // A link named `pic.png` to `page.html` is still no image.
    const type = imageType(real);
    if (type === null) return { status: 415, reason: 'Not an image type the editor shows' };
    const opened = await openRegularFile(real);
    if (opened.kind !== 'file') return { status: 404, reason: 'No such image in the workspace' };
    try {
      if (opened.stats.size > BigInt(MAX_IMAGE_BYTES))
        return { status: 413, reason: `Larger than ${MAX_IMAGE_BYTES / 1024 / 1024} MB: not shown` };
      const body = await readWholeFile(opened.handle.fd);
      if (body.length > MAX_IMAGE_BYTES)
        return { status: 413, reason: `Larger than ${MAX_IMAGE_BYTES / 1024 / 1024} MB: not shown` };
      return { status: 200, type, body };
    } finally {
      await opened.handle.close();
    }
  }

  /**
   * Saves a pasted image into the attachments folder under a new name (`Pasted image
   * 20260102030405.png`, then ` 1`, ` 2`… — an existing file is never replaced) and answers
   * `{path, link}`: the file, and the link to it from the note.
   */
  async saveAttachment(request: IncomingMessage, url: URL): Promise<Answer> {
    const note = url.searchParams.get('note');
    const ext = extensionOf(url.searchParams.get('type') ?? '');
    if (note === null || !path.isAbsolute(note))
      return { status: 400, reason: 'The note must be saved first' };
    if (ext === null) return { status: 415, reason: 'Not an image type the editor saves' };
    const declared = Number(request.headers['content-length'] ?? NaN);
    if (!Number.isSafeInteger(declared)) return { status: 400, reason: 'Content-Length is required' };
    if (declared > MAX_IMAGE_BYTES) return { status: 413, reason: tooLarge(declared) };
    const folder = this.#attachmentFolder(note, url.searchParams.get('folder') ?? '');
    if (folder === null) return { status: 403, reason: 'The attachment folder is outside the workspace' };
    const made = await this.#makeFolder(folder.root, folder.relative);
    if (typeof made !== 'string') return made;
    const body = await readBounded(request, MAX_IMAGE_BYTES);
    if (body === null) return { status: 413, reason: tooLarge(declared) };
    const saved = await saveUnique(made, pastedName(new Date()), ext, body);
    const noteFolder = await this.host.resolve(path.dirname(note)).catch(() => path.dirname(note));
    const link = path
      .relative(noteFolder, saved)
      .split(path.sep)
      .map((segment) => segment.replaceAll('%', '%25').replaceAll(' ', '%20'))
      .join('/');
    return {
      status: 200,
      type: 'application/json',
      body: Buffer.from(JSON.stringify({ path: saved, link })),
    };
  }

  /** The file a wikilink embed names: by name in the note's workspace root (ADR 74). */
  async #embed(url: URL): Promise<string | null> {
    const note = url.searchParams.get('note');
    const name = url.searchParams.get('name');
    if (note === null || name === null || !path.isAbsolute(note)) return null;
    const real = await this.host.resolve(note).catch(() => null);
    if (real === null) return null;
    const root = this.#rootOf(real);
    if (root === null) return path.join(path.dirname(real), name);
    const found = wikilinkFile(name, path.relative(root, real).split(path.sep).join('/'), [
      ...(await this.host.filesOf(root)),
    ]);
    return found === null ? null : path.join(root, ...found.split('/'));
  }

  #rootOf(file: string): string | null {
    const holders = this.host.roots().filter((root) => isWithinRoot(file, root));
    return holders.sort((a, b) => b.length - a.length)[0] ?? null;
  }

  /**
   * Where pasted images go, as Obsidian's "Default location for new attachments": `/` (or
   * empty) the workspace root, `./sub` a folder beside the note (`./` the note's own), any
   * other value a folder under the workspace root. A note outside every workspace root counts
   * its own folder as the root.
   */
  #attachmentFolder(note: string, setting: string): { root: string; relative: string[] } | null {
    const noteFolder = path.dirname(note);
    const root = this.#rootOf(note) ?? noteFolder;
    const besideNote = setting.startsWith('./') || setting === '.';
    const base = besideNote ? noteFolder : root;
    const target = path.resolve(base, setting.replace(/^\.?\/+/, ''));
    if (!isWithinRoot(target, root) && !isWithinRoot(target, noteFolder)) return null;
    const from = isWithinRoot(target, root) ? root : noteFolder;
    const relative = path
      .relative(from, target)
      .split(path.sep)
      .filter((s) => s !== '');
    return { root: from, relative };
  }

  /** Creates the folder one level at a time, each through the path guard; its canonical path. */
  async #makeFolder(root: string, relative: readonly string[]): Promise<string | Answer> {
    let at = await this.#guarded(root);
    if (typeof at !== 'string') return at;
    for (const segment of relative) {
      const next = await this.#guarded(path.join(at, segment));
      if (typeof next !== 'string') return next;
      await fs.mkdir(next).catch((error: unknown) => {
        if (errorCode(error) !== 'EEXIST') throw error;
      });
      // What is there now must be a folder of the scope (not a link that appeared meanwhile).
      at = await this.#guarded(next);
      if (typeof at !== 'string') return at;
    }
    return at;
  }

  async #guarded(input: string): Promise<string | Answer> {
    try {
      return await this.host.resolve(input);
    } catch (error) {
      if (isDomainError(error)) return { status: 403, reason: 'Not served: outside the workspace' };
      throw error;
    }
  }
}

/** The image type of a file name by its extension, or null. */
export function imageType(file: string): string | null {
  return imageTypeOf(path.basename(file));
}

/** The extension a saved image of this MIME type gets, or null for a type not on the list. */
function extensionOf(mime: string): string | null {
  const wanted = mime.toLowerCase();
  return Object.entries(IMAGE_TYPES).find(([, type]) => type === wanted)?.[0] ?? null;
}

/** Obsidian's name for a pasted image: `Pasted image 20260102030405`. */
export function pastedName(at: Date): string {
  const two = (n: number) => String(n).padStart(2, '0');
  const stamp =
    `${at.getFullYear()}${two(at.getMonth() + 1)}${two(at.getDate())}` +
    `${two(at.getHours())}${two(at.getMinutes())}${two(at.getSeconds())}`;
  return `Pasted image ${stamp}`;
}

/**
 * Writes `body` as `<stem><ext>` in `folder`, or `<stem> 1<ext>`, … : staged and fsynced beside
 * it, then hard-linked to its name, which fails rather than replace a file that is there.
 */
async function saveUnique(folder: string, stem: string, ext: string, body: Buffer): Promise<string> {
  const first = path.join(folder, `${stem}${ext}`);
  const staged = await stageFile(first, body);
  try {
    for (let n = 0; n < 1000; n++) {
      const target = n === 0 ? first : path.join(folder, `${stem} ${n}${ext}`);
      try {
        await fs.link(staged.temp, target);
        return target;
      } catch (error) {
        if (errorCode(error) !== 'EEXIST') throw error;
      }
    }
    throw new Error(`No free name for ${stem}${ext} in ${folder}`);
  } finally {
    await fs.rm(staged.temp, { force: true });
  }
}

/** The request's body, or null as soon as it passes `limit` bytes (the rest is not kept). */
function readBounded(request: IncomingMessage, limit: number): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) over = true;
      if (!over) chunks.push(chunk);
    });
    request.on('end', () => resolve(over ? null : Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

function tooLarge(bytes: number): string {
  const mb = (n: number) => (n / 1024 / 1024).toFixed(1);
  return `The image is ${mb(bytes)} MB; the editor saves images up to ${mb(MAX_IMAGE_BYTES)} MB`;
}

function refuse(response: ServerResponse, status: number, reason: string, close = false): void {
  response.writeHead(status, {
    'content-type': 'text/plain; charset=utf-8',
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    ...(close ? { connection: 'close' } : {}),
  });
  response.end(reason + '\n');
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
