import { access, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { WindowState } from '@vmark/sdk';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GrantRecord } from '../delegation/grant-record.js';
import { WorkspaceRegistry } from '../workspace/workspace-registry.js';
import { loadBreakdown, type BreakdownSources } from './breakdown-panel.js';

let root: string;
let registry: WorkspaceRegistry;

beforeEach(async () => {
  root = await realpath(await mkdtemp(path.join(os.tmpdir(), 'vmark-breakdown-')));
  await writeFile(path.join(root, 'a.md'), '# A\n');
});
afterEach(async () => {
  registry?.dispose();
  await rm(root, { recursive: true, force: true });
});

function sources(roots: string[], windows: WindowState[] = []): BreakdownSources {
  // The panel never grants: the record's home is never created.
  const grants = new GrantRecord(`${root}-home`);
  registry = new WorkspaceRegistry({ roots: () => roots }, () => Promise.resolve('writer-test'), grants);
  return {
    workspaces: registry,
    workbench: { state: () => windows },
    vault: { roots: () => roots },
    captured: () => Promise.resolve(),
  };
}

describe('the breakdown panel provider', () => {
  it('shows no workspace when none is open', async () => {
    expect(await loadBreakdown(sources([]))).toEqual({
      workspace: null,
      initialized: false,
      objects: null,
      openItems: 0,
      quarantined: 0,
      edges: [],
    });
  });

  it('reads a workspace without a ledger without creating one', async () => {
    const view = await loadBreakdown(sources([root]));
    expect(view).toMatchObject({ workspace: root, initialized: false, objects: null, edges: [] });
    await expect(access(path.join(root, '.vmark'))).rejects.toThrow();
  });

  it('follows the focused window’s active tab to the workspace that holds it', async () => {
    const other = await realpath(await mkdtemp(path.join(os.tmpdir(), 'vmark-breakdown-other-')));
    try {
      const tab = {
        id: 't1',
        filePath: path.join(other, 'b.md'),
        title: 'b.md',
        dirty: false,
        revision: 'rev-aaaaaaaa',
        kind: 'markdown',
        active: true,
        visible: true,
      };
      const windows = [{ label: 'main', focused: true, activeWorkspaceInstanceId: null, tabs: [tab] }];
      expect((await loadBreakdown(sources([root, other], windows))).workspace).toBe(other);
    } finally {
      await rm(other, { recursive: true, force: true });
    }
  });
});
