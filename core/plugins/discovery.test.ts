import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { discoverPlugins } from './discovery.js';

let root: string;

beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'vmark-discovery-'));
});

afterEach(() => rm(root, { recursive: true, force: true }));

async function plugin(...parts: string[]): Promise<void> {
  const dir = path.join(root, ...parts);
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, 'manifest.json'), JSON.stringify({ id: parts.at(-1) }));
}

it('finds plugins in the root and one level down in folders that group them, and no deeper', async () => {
  await plugin('browser');
  await plugin('site-extractors', 'github');
  await plugin('site-extractors', 'wikipedia');
  await plugin('site-extractors', 'nested', 'too-deep');
  await mkdir(path.join(root, 'empty'));
  const found = await discoverPlugins([{ dir: root, source: 'builtin' }]);
  expect(found.map((c) => path.relative(root, c.dir!))).toEqual([
    'browser',
    path.join('site-extractors', 'github'),
    path.join('site-extractors', 'wikipedia'),
  ]);
  expect(found.map((c) => (c.raw as { id: string }).id)).toEqual(['browser', 'github', 'wikipedia']);
});
