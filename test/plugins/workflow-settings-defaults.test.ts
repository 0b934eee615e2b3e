import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { readManifest, startTestHost, type TestHost } from '@vmark/sdk/testing';
import { afterEach, beforeEach, expect, it } from 'vitest';
import documentPlugin from '../../plugins/document/src/index.js';
import workflowPlugin from '../../plugins/workflow/src/index.js';

/*
 * The default the manifest declares (and the settings panel shows) must be the
 * one the code falls back to when settings.json says nothing.
 */

const manifest = readManifest(new URL('../../plugins/workflow/manifest.json', import.meta.url)) as {
  contributes: { settings: Record<string, { default: unknown }> };
};
const declared = manifest.contributes.settings;
const DISABLED = 'actionlint disabled in settings';

let workspace: string;
let kit: TestHost;
beforeEach(async () => {
  workspace = await realpath(await mkdtemp(path.join(os.tmpdir(), 'vmark-wf-settings-')));
  await mkdir(path.join(workspace, '.github/workflows'), { recursive: true });
  await writeFile(
    path.join(workspace, '.github/workflows/ci.yml'),
    'name: CI\non: push\njobs:\n  build:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo hi\n',
  );
});
afterEach(async () => {
  await kit.dispose();
  await rm(workspace, { recursive: true, force: true });
});

it('declares advanced.workflowActionlint with the default workflow.validate uses', async () => {
  expect(Object.keys(declared)).toEqual(['advanced.workflowActionlint']);
  kit = await startTestHost({
    plugins: [
      {
        manifest: readManifest(new URL('../../plugins/document/manifest.json', import.meta.url)),
        plugin: documentPlugin,
      },
      { manifest, plugin: workflowPlugin },
    ],
    workspace,
    open: ['.github/workflows/ci.yml'],
  });
  const skipped = async () => {
    const result = await kit.call('workflow', { action: 'validate' });
    return (result.data as { error?: unknown }).error === DISABLED;
  };
  const withoutFile = await skipped();
  const value = declared['advanced.workflowActionlint']?.default;
  await writeFile(
    path.join(kit.home, 'settings.json'),
    JSON.stringify({ advanced: { workflowActionlint: value } }),
  );
  expect(await skipped()).toBe(withoutFile);
  expect(withoutFile).toBe(value === false);
});
