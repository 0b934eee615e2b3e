import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StaticAssets } from './static-assets.js';

let folder: string;
const MAP = '{"imports":{"@codemirror/state":"/assets/codemirror-state.js?token=__VMARK_TOKEN__"}}';

beforeEach(async () => {
  folder = await mkdtemp(path.join(os.tmpdir(), 'vmark-assets-'));
  await writeFile(
    path.join(folder, 'index.html'),
    `<head><script type="importmap">${MAP}</script><!-- vmark:preloads --><script type="module" src="/assets/renderer.js?token=__VMARK_TOKEN__"></script></head>`,
  );
  for (const name of ['renderer.js', 'renderer.css', 'codemirror-state.js', 'stray.js'])
    await writeFile(path.join(folder, name), `/* ${name} */`);
});
afterEach(() => rm(folder, { recursive: true, force: true }));

describe('StaticAssets', () => {
  it('serves the shared modules the import map names, and hashes the map with its token filled in', async () => {
    const assets = await StaticAssets.load(folder, 'tok en');
    expect(assets.get('/assets/codemirror-state.js')?.body.toString()).toBe('/* codemirror-state.js */');
    // What the import map does not name is not served.
    expect(assets.get('/assets/stray.js')).toBeUndefined();
    const filled = MAP.replace('__VMARK_TOKEN__', 'tok%20en');
    expect(assets.page().body.toString()).toContain(filled);
    expect(assets.scriptHashes).toEqual([`'sha256-${createHash('sha256').update(filled).digest('base64')}'`]);
  });

  it('asks the browser to fetch the views the page will import, with the token, before its own script', async () => {
    const assets = await StaticAssets.load(folder, 'tok en');
    const page = assets.page(['/plugins/document/ui/dist/markdown-view.js']).body.toString();
    expect(page).toContain(
      '<link rel="modulepreload" href="/plugins/document/ui/dist/markdown-view.js?token=tok%20en" /><script type="module"',
    );
    expect(assets.page().body.toString()).not.toMatch(/modulepreload|vmark:preloads/);
  });

  it('puts no path in the page that a manifest could not have named', async () => {
    const assets = await StaticAssets.load(folder, 't');
    for (const odd of [
      '/plugins/x/ui/a.js"><script>alert(1)</script>',
      '/plugins/x/ui/a.js?x=1',
      '/plugins/X/ui/a.js',
      '/assets/renderer.js',
      'https://elsewhere.example/ui/a.js',
      '/plugins/x/ui/a.css',
    ])
      expect(assets.page([odd]).body.toString(), odd).not.toContain('modulepreload');
  });

  it('serves no index.html or stray name under /assets/', async () => {
    const assets = await StaticAssets.load(folder, 't');
    for (const name of ['/assets/index.html', '/assets/../index.html', '/assets/', '/', '/renderer.js'])
      expect(assets.get(name), name).toBeUndefined();
  });

  it('refuses to start when a shared module the map names is missing', async () => {
    await rm(path.join(folder, 'codemirror-state.js'));
    await expect(StaticAssets.load(folder, 't')).rejects.toThrow(/codemirror-state\.js\); run npm run build/);
  });

  it('has no script hash for a page without an import map', async () => {
    await writeFile(path.join(folder, 'index.html'), '<head></head>');
    expect((await StaticAssets.load(folder, 't')).scriptHashes).toEqual([]);
  });
});
