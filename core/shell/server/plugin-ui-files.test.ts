import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ActivePanel } from '../../plugins/plugin-host.js';
import { panelModulePath, readPluginUiFile } from './plugin-ui-files.js';

let scratch: string;
let active: ActivePanel[];

beforeEach(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), 'vmark-plugin-ui-'));
  const notes = path.join(scratch, 'notes');
  await mkdir(path.join(notes, 'ui', 'dist'), { recursive: true });
  await writeFile(path.join(notes, 'manifest.json'), '{"id":"notes"}');
  await writeFile(path.join(notes, 'ui', 'dist', 'outline.js'), 'export function mount() {}');
  await writeFile(path.join(notes, 'ui', 'outline.css'), '.outline {}');
  await writeFile(path.join(notes, 'ui', 'outline.ts'), 'export {}');
  await writeFile(path.join(notes, 'ui', 'dist', 'math.woff2'), 'wOF2');
  await writeFile(path.join(notes, 'ui', 'dist', 'math.ttf'), 'ttf');
  await writeFile(path.join(scratch, 'secret.js'), 'secret');
  await symlink(path.join(scratch, 'secret.js'), path.join(notes, 'ui', 'escape.js'));
  await symlink(scratch, path.join(notes, 'ui', 'up'));
  const other = path.join(scratch, 'other');
  await mkdir(path.join(other, 'ui'), { recursive: true });
  await writeFile(path.join(other, 'ui', 'panel.js'), 'other');
  active = [{ pluginId: 'notes', dir: notes, panel: { id: 'outline', title: 'Outline', slot: 'right' } }];
});
afterEach(() => rm(scratch, { recursive: true, force: true }));

const read = (pathname: string) => readPluginUiFile(pathname, active);

describe('readPluginUiFile', () => {
  it('serves scripts and styles from the active plugin’s ui/ folder', async () => {
    const script = await read('/plugins/notes/ui/dist/outline.js');
    expect(script?.type).toBe('text/javascript; charset=utf-8');
    expect(script?.body.toString()).toBe('export function mount() {}');
    expect((await read('/plugins/notes/ui/outline.css'))?.type).toBe('text/css; charset=utf-8');
  });

  it('serves a view’s woff2 fonts as fonts, and no other font format', async () => {
    expect((await read('/plugins/notes/ui/dist/math.woff2'))?.type).toBe('font/woff2');
    expect(await read('/plugins/notes/ui/dist/math.ttf')).toBeNull();
  });

  it.each([
    ['a path out of ui/', '/plugins/notes/ui/../manifest.json'],
    ['a dot segment', '/plugins/notes/ui/./dist/outline.js'],
    ['an escaped separator', '/plugins/notes/ui/..%2fmanifest.json'],
    ['an escaped dot', '/plugins/notes/ui/%2e%2e/manifest.json'],
    ['an empty segment', '/plugins/notes/ui//dist/outline.js'],
    ['a hidden file', '/plugins/notes/ui/.env.js'],
    ['a backslash', '/plugins/notes/ui/dist\\outline.js'],
    ['a NUL byte', '/plugins/notes/ui/dist/outline.js\0'],
    ['TypeScript source', '/plugins/notes/ui/outline.ts'],
    ['the manifest', '/plugins/notes/manifest.json'],
    ['a missing file', '/plugins/notes/ui/dist/none.js'],
    ['a symlink to a file outside ui/', '/plugins/notes/ui/escape.js'],
    ['a symlinked folder outside ui/', '/plugins/notes/ui/up/secret.js'],
    ['a plugin with no active panels', '/plugins/other/ui/panel.js'],
    ['an unknown plugin', '/plugins/nobody/ui/panel.js'],
    ['a bad plugin id', '/plugins/../notes/ui/dist/outline.js'],
  ])('refuses %s', async (_why, pathname) => {
    expect(await read(pathname)).toBeNull();
  });
});

describe('panelModulePath', () => {
  it('is the manifest’s module, or ui/<id>.js', () => {
    const panel = { id: 'outline', title: 'Outline', slot: 'right' } as const;
    expect(panelModulePath('notes', panel)).toBe('/plugins/notes/ui/outline.js');
    expect(panelModulePath('notes', { ...panel, module: 'ui/dist/outline.js' })).toBe(
      '/plugins/notes/ui/dist/outline.js',
    );
  });
});
