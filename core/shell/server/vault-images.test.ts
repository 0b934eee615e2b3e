import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { MAX_IMAGE_BYTES } from '@vmark/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectRaw, statusOf } from '../../../test/support/raw-http.js';
import { createHost, type Host } from '../../composition/host.js';
import { HostVault } from '../../vault/host-vault.js';
import { startUiServer, type UiServer } from './ui-server.js';

/*
 * The page's image route (ADR 74) as the list of attacks it stops, through a real UI server.
 */

const token = 'vault-images-test-token-0123456789abcdef';
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
const EVIL_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>window.pwned = 1</script></svg>';
let tmp: string;
let vaultDir: string;
let outside: string;
let host: Host;
let ui: UiServer;
let port: number;

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'vmark-vault-images-'));
  const home = path.join(tmp, 'home');
  const assets = path.join(tmp, 'assets');
  vaultDir = path.join(tmp, 'vault');
  outside = path.join(tmp, 'outside');
  for (const dir of [
    home,
    assets,
    vaultDir,
    outside,
    path.join(vaultDir, 'notes'),
    path.join(vaultDir, 'img'),
  ])
    await mkdir(dir);
  await mkdir(path.join(vaultDir, '.vmark'));
  for (const name of ['index.html', 'renderer.js', 'renderer.css'])
    await writeFile(path.join(assets, name), '');
  await writeFile(path.join(vaultDir, 'notes', 'note.md'), '# note\n');
  await writeFile(path.join(vaultDir, 'notes', 'pic.png'), PNG);
  await writeFile(path.join(vaultDir, 'img', 'deep.png'), PNG);
  await writeFile(path.join(vaultDir, '.vmark', 'ledger.png'), PNG);
  await writeFile(path.join(vaultDir, 'page.html'), '<script>alert(1)</script>');
  await writeFile(path.join(vaultDir, 'evil.svg'), EVIL_SVG);
  await writeFile(path.join(vaultDir, 'huge.png'), Buffer.alloc(MAX_IMAGE_BYTES + 1));
  await writeFile(path.join(outside, 'secret.png'), PNG);
  await writeFile(path.join(outside, 'secret.html'), '<p>secret</p>');
  await symlink(path.join(outside, 'secret.png'), path.join(vaultDir, 'escape.png'));
  await symlink(path.join(vaultDir, 'page.html'), path.join(vaultDir, 'disguised.png'));
  host = await createHost({ home, userPlugins: false });
  vaultDir = await host.container.get(HostVault).addWorkspaceRoot(vaultDir);
  ui = await startUiServer(host, { port: 0, token, assetsDir: assets });
  port = Number(new URL(ui.url).port);
});
afterAll(async () => {
  await ui.close();
  await host.dispose();
  await rm(tmp, { recursive: true, force: true });
});

const base = () => `http://127.0.0.1:${port}`;
const fileUrl = (file: string, withToken = token) =>
  `${base()}/vault/file?path=${encodeURIComponent(file)}&token=${encodeURIComponent(withToken)}`;
const get = (url: string) => fetch(url);

describe('the image route serves', () => {
  it('an image of the workspace, with its type, nosniff and a sandboxing CSP', async () => {
    const response = await get(fileUrl(path.join(vaultDir, 'notes', 'pic.png')));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/png');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('content-security-policy')).toContain('sandbox');
    expect(response.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(Buffer.from(await response.arrayBuffer())).toEqual(PNG);
  });

  it('an SVG with a script as image/svg+xml under the sandbox CSP, never as a page', async () => {
    const response = await get(fileUrl(path.join(vaultDir, 'evil.svg')));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/svg+xml');
    expect(response.headers.get('content-security-policy')).toMatch(/sandbox/);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('a wikilink embed found by name anywhere in the workspace, the note’s folder first', async () => {
    const note = path.join(vaultDir, 'notes', 'note.md');
    const embed = (name: string) =>
      get(
        `${base()}/vault/embed?note=${encodeURIComponent(note)}&name=${encodeURIComponent(name)}&token=${token}`,
      );
    expect((await embed('deep.png')).status).toBe(200);
    expect((await embed('DEEP.PNG')).status).toBe(200);
    expect((await embed('pic.png')).status).toBe(200);
    expect((await embed('missing.png')).status).toBe(404);
    expect((await embed('../outside/secret.png')).status).toBe(404);
  });
});

describe('the image route refuses', () => {
  it('a request without the token, or with a wrong one', async () => {
    const pic = path.join(vaultDir, 'notes', 'pic.png');
    expect((await get(`${base()}/vault/file?path=${encodeURIComponent(pic)}`)).status).toBe(401);
    expect((await get(fileUrl(pic, 'wrong-token'))).status).toBe(401);
  });

  it('`..` out of the workspace, spelled plainly or %-encoded', async () => {
    const climbing = `${vaultDir}/notes/../../outside/secret.png`;
    expect((await get(fileUrl(climbing))).status).toBe(403);
    const encoded = `${base()}/vault/file?path=${vaultDir}/notes/%2e%2e/%2e%2e/outside/secret.png&token=${token}`;
    expect((await get(encoded)).status).toBe(403);
  });

  it('an absolute path outside the workspace, and a relative one', async () => {
    expect((await get(fileUrl(path.join(outside, 'secret.png')))).status).toBe(403);
    expect((await get(fileUrl('notes/pic.png'))).status).toBe(404);
  });

  it('a NUL byte in the path', async () => {
    expect((await get(fileUrl(`${path.join(vaultDir, 'notes', 'pic.png')}\0.png`))).status).toBe(403);
  });

  it('a symbolic link out of the workspace, and one named .png that leads to HTML', async () => {
    expect((await get(fileUrl(path.join(vaultDir, 'escape.png')))).status).toBe(403);
    expect((await get(fileUrl(path.join(vaultDir, 'disguised.png')))).status).toBe(415);
  });

  it('a file inside .vmark/', async () => {
    expect((await get(fileUrl(path.join(vaultDir, '.vmark', 'ledger.png')))).status).toBe(403);
  });

  it('an HTML file, which is never served', async () => {
    const response = await get(fileUrl(path.join(vaultDir, 'page.html')));
    expect(response.status).toBe(415);
    expect(response.headers.get('content-type')).not.toContain('html');
  });

  it('a file over the size bound', async () => {
    expect((await get(fileUrl(path.join(vaultDir, 'huge.png')))).status).toBe(413);
  });

  it('a method other than GET', async () => {
    const response = await fetch(fileUrl(path.join(vaultDir, 'notes', 'pic.png')), { method: 'DELETE' });
    expect(response.status).toBe(405);
  });
});

const attach = (note: string, folder: string, body: Buffer, type = 'image/png') =>
  fetch(
    `${base()}/vault/attachment?note=${encodeURIComponent(note)}&folder=${encodeURIComponent(folder)}` +
      `&type=${encodeURIComponent(type)}&token=${token}`,
    { method: 'POST', body: new Uint8Array(body) },
  );

describe('a pasted image', () => {
  const note = () => path.join(vaultDir, 'notes', 'note.md');

  it('is saved in the attachments folder under a new name each time, and its link given', async () => {
    const first = await attach(note(), 'attachments', PNG);
    expect(first.status).toBe(200);
    const saved = (await first.json()) as { path: string; link: string };
    expect(path.dirname(saved.path)).toBe(path.join(vaultDir, 'attachments'));
    expect(path.basename(saved.path)).toMatch(/^Pasted image \d{14}\.png$/);
    expect(saved.link).toBe(`../attachments/${path.basename(saved.path).replaceAll(' ', '%20')}`);
    expect(await readFile(saved.path)).toEqual(PNG);
    const second = (await (await attach(note(), 'attachments', PNG)).json()) as { path: string };
    expect(second.path).not.toBe(saved.path);
    expect(await readdir(path.join(vaultDir, 'attachments'))).toHaveLength(2);
  });

  it('goes beside the note with ./, and at the workspace root with /', async () => {
    const beside = (await (await attach(note(), './', PNG)).json()) as { path: string; link: string };
    expect(path.dirname(beside.path)).toBe(path.join(vaultDir, 'notes'));
    expect(beside.link).not.toContain('/');
    const root = (await (await attach(note(), '/', PNG)).json()) as { path: string };
    expect(path.dirname(root.path)).toBe(vaultDir);
  });

  it('is refused when the folder would be outside the workspace or in .vmark/', async () => {
    expect((await attach(note(), '../../outside', PNG)).status).toBe(403);
    expect((await attach(note(), '.vmark', PNG)).status).toBe(403);
    expect(await readdir(outside)).toEqual(['secret.html', 'secret.png']);
  });

  it('is refused when it is no image type, or the note is not saved', async () => {
    expect((await attach(note(), 'attachments', PNG, 'text/html')).status).toBe(415);
    expect((await attach('untitled', 'attachments', PNG)).status).toBe(400);
  });

  it('over the bound is refused from its declared size, before its bytes are read', async () => {
    const raw = await connectRaw(port);
    await raw.send(
      `POST /vault/attachment?note=${encodeURIComponent(note())}&folder=big&type=image%2Fpng&token=${token} HTTP/1.1\r\n` +
        `Host: 127.0.0.1:${port}\r\nContent-Type: image/png\r\nContent-Length: ${50 * 1024 * 1024}\r\n\r\n`,
    );
    expect(statusOf(await raw.head())).toBe(413);
    await expect(readdir(path.join(vaultDir, 'big'))).rejects.toThrow();
  });
});
