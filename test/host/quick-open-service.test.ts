import { readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import documentPlugin from '../../plugins/document/src/index.js';
import { createHost, type Host } from '../../core/composition/host.js';
import { QuickOpenService } from '../../core/shell/server/quick-open-service.js';
import { HostVault } from '../../core/vault/host-vault.js';
import { RecentFiles } from '../../core/workbench/recent-files.js';
import { HostWorkspaceFiles } from '../../core/workspace-files/host-workspace-files.js';

/* Quick open's host side on a real host with the document plugin: queries, opens, recent files. */

const documentManifest: unknown = JSON.parse(
  readFileSync(new URL('../../plugins/document/manifest.json', import.meta.url), 'utf8'),
);

let host: Host;
let home: string;
let workspace: string;
let outside: string;
let service: QuickOpenService;

beforeEach(async () => {
  home = await fs.mkdtemp(path.join(os.tmpdir(), 'vmark-quick-open-home-'));
  workspace = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'vmark-quick-open-ws-')));
  outside = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'vmark-quick-open-out-')));
  await fs.mkdir(path.join(workspace, 'notes'));
  for (const name of ['notes/alpha.md', 'notes/beta.md', 'gamma.md']) {
    await fs.writeFile(path.join(workspace, name), `# ${name}\n`);
  }
  await fs.writeFile(path.join(outside, 'alpha-outside.md'), 'no\n');
  host = await createHost({
    home,
    userPlugins: false,
    extraPlugins: [
      { source: 'inline', dir: null, raw: documentManifest, load: () => Promise.resolve(documentPlugin) },
    ],
  });
  await host.workbench.openWorkspace(workspace);
  service = new QuickOpenService(
    host.workbench,
    host.container.get(HostVault),
    host.container.get(HostWorkspaceFiles),
    RecentFiles.in(home),
  );
});
afterEach(async () => {
  // The recent files' write is not awaited by an open: it must land before the folders go.
  await service.flushed();
  service.dispose();
  await host.dispose();
  await Promise.all([home, workspace, outside].map((d) => fs.rm(d, { recursive: true, force: true })));
});

const handlers = () => service.handlers('main', () => []);

describe('QuickOpenService', () => {
  it('answers what it has found while the first walk is under way, and says it is building', async () => {
    const first = await handlers()['quickOpen.query']({ query: '' });
    expect(first.index.building).toBe(true);
    await service.indexOf(workspace).ready;
    expect((await handlers()['quickOpen.query']({ query: '' })).index).toMatchObject({
      building: false,
      files: 3,
    });
  });

  it('answers the window’s workspace files with labels, positions and the index’s state', async () => {
    await service.indexOf(workspace).ready;
    const { items, index } = await handlers()['quickOpen.query']({ query: 'nalp' });
    expect(index).toEqual({ building: false, files: 3, notes: [] });
    expect(items).toEqual([
      {
        path: path.join(workspace, 'notes', 'alpha.md'),
        label: 'notes/alpha.md',
        positions: [0, 6, 7, 8],
        recent: false,
      },
    ]);
  });

  it('opens a listed file, counts it as recent, and lists the recent files first on an empty query', async () => {
    await service.indexOf(workspace).ready;
    const open = handlers()['quickOpen.open'];
    await open({ path: path.join(workspace, 'gamma.md') });
    const behind = await open({ path: path.join(workspace, 'notes', 'beta.md'), background: true });
    // Behind: the tab is there, and the one shown stays shown.
    expect(host.workbench.state()[0]!.tabs.find((t) => t.active)?.filePath).toBe(
      path.join(workspace, 'gamma.md'),
    );
    expect(host.workbench.state()[0]!.tabs.map((t) => t.id)).toContain(behind.tabId);
    const { items } = await handlers()['quickOpen.query']({ query: '' });
    expect(items.map((i) => [i.label, i.recent])).toEqual([
      ['notes/beta.md', true],
      ['gamma.md', true],
      ['notes/alpha.md', false],
    ]);
  });

  it('refuses to open a file outside the workspace and records nothing', async () => {
    await service.indexOf(workspace).ready;
    await expect(
      handlers()['quickOpen.open']({ path: path.join(outside, 'alpha-outside.md') }),
    ).rejects.toMatchObject({
      code: 'INVALID_PATH',
    });
    const { items } = await handlers()['quickOpen.query']({ query: 'alpha' });
    expect(items.map((i) => i.label)).toEqual(['notes/alpha.md']);
    expect(await RecentFiles.in(home).list(workspace)).toEqual([]);
  });
});
