import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { readManifest, startTestHost, type TestHost } from '@vmark/sdk/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_CJK_FORMATTING } from '../src/cjk/index.js';
import documentPlugin from '../src/index.js';

/*
 * The defaults the manifest declares (and the settings panel shows) must be the
 * ones the code falls back to when settings.json says nothing.
 */

const manifest = readManifest(new URL('../manifest.json', import.meta.url)) as {
  contributes: { settings: Record<string, { default: unknown }> };
};
const declared = manifest.contributes.settings;

/** The declared defaults as settings.json would hold them, nested by key. */
function declaredDefaultsFile(): Record<string, Record<string, unknown>> {
  const file: Record<string, Record<string, unknown>> = {};
  for (const [key, { default: value }] of Object.entries(declared)) {
    const [section, name] = key.split('.') as [string, string];
    (file[section] ??= {})[name] = value;
  }
  return file;
}

describe('document plugin settings', () => {
  it('declares every CJK formatting option, each with the default the transforms use', () => {
    const cjk = Object.fromEntries(
      Object.entries(declared)
        .filter(([key]) => key.startsWith('cjkFormatting.'))
        .map(([key, { default: value }]) => [key.slice('cjkFormatting.'.length), value]),
    );
    expect(cjk).toEqual({ ...DEFAULT_CJK_FORMATTING });
  });

  describe('integrations.autoApproveEdits', () => {
    let workspace: string;
    let kit: TestHost;
    beforeEach(async () => {
      workspace = await realpath(await mkdtemp(path.join(os.tmpdir(), 'vmark-doc-settings-')));
      await writeFile(path.join(workspace, 'a.md'), '# A\n');
    });
    afterEach(async () => {
      await kit.dispose();
      await rm(workspace, { recursive: true, force: true });
    });

    const saveAsRefused = async (name: string) => {
      const result = await kit.call('workspace', { action: 'save_as', filePath: path.join(workspace, name) });
      return result.isError && result.text.includes('APPROVAL_REQUIRED');
    };

    it('behaves without settings.json as with the declared defaults written out', async () => {
      kit = await startTestHost({
        plugins: [{ manifest, plugin: documentPlugin }],
        workspace,
        open: ['a.md'],
      });
      const withoutFile = await saveAsRefused('b.md');
      await writeFile(path.join(kit.home, 'settings.json'), JSON.stringify(declaredDefaultsFile()));
      expect(await saveAsRefused('c.md')).toBe(withoutFile);
      expect(withoutFile).toBe(declared['integrations.autoApproveEdits']?.default === false);
    });
  });
});
