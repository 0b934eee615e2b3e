import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { HOST_API_VERSION } from '@vmark/sdk';
import { describe, expect, it } from 'vitest';
import { validateManifest } from '../core/plugins/validate-manifest.js';
import { REPO } from './support/cli.js';

const pluginsDir = path.join(REPO, 'plugins');
const pluginFolders = (dir: string) =>
  readdirSync(path.join(pluginsDir, dir), { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(path.join(pluginsDir, dir, d.name, 'manifest.json')))
    .map((d) => path.posix.join(dir, d.name));
// Site extractors are grouped one level down: plugins/site-extractors/<id>/ is plugin "site-<id>".
const folders = [...pluginFolders(''), ...pluginFolders('site-extractors')];
const idOf = (folder: string) => folder.replace(/^site-extractors\//, 'site-');
const json = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;

describe.each(folders)('the built-in plugin in plugins/%s', (folder) => {
  const manifest = json(path.join(pluginsDir, folder, 'manifest.json'));
  const pkg = json(path.join(pluginsDir, folder, 'package.json'));

  it('has a valid, compatible manifest whose id is its folder name', () => {
    expect(validateManifest(manifest, HOST_API_VERSION).diagnostics).toEqual([]);
    expect(manifest.id).toBe(idOf(folder));
  });

  it('ships as its own package, versioned with its manifest, reaching vmark through the SDK alone', () => {
    expect(pkg.name).toBe(`@vmark/plugin-${idOf(folder)}`);
    expect(pkg.version).toBe(manifest.version);
    // Libraries of its own are its business; of vmark it may know the SDK and nothing else.
    const vmarkDeps = Object.keys(pkg.dependencies as object).filter((name) => name.startsWith('@vmark/'));
    expect(vmarkDeps).toEqual(['@vmark/sdk']);
    expect(pkg.keywords).toContain('vmark-plugin');
    expect(pkg.main).toBe(manifest.main);
  });
});
