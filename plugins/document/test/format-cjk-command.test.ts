import { mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { domainErrorOf, readManifest, startTestHost, type TestHost } from '@vmark/sdk/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import documentPlugin from '../src/index.js';

const manifest = readManifest(new URL('../manifest.json', import.meta.url));

describe('the "Format CJK text" editor command', () => {
  let workspace: string;
  let test: TestHost;
  const file = () => path.join(workspace, 'note.md');
  const notes = () => path.join(workspace, 'notes.txt');

  beforeEach(async () => {
    workspace = await realpath(await mkdtemp(path.join(os.tmpdir(), 'vmark-cjk-command-')));
    await writeFile(file(), '中文English混排\n');
    await writeFile(notes(), '中文English混排\n');
    test = await startTestHost({
      plugins: [{ manifest, plugin: documentPlugin }],
      workspace,
      open: [file(), notes()],
    });
  });

  afterEach(async () => {
    await test.dispose();
    await rm(workspace, { recursive: true, force: true });
  });

  const tabOf = (filePath: string) =>
    test.host.workbench.state()[0]!.tabs.find((tab) => tab.filePath === filePath)!.id;

  it('formats the tab it is run in, in the buffer only: the file keeps its bytes until saved', async () => {
    const note = await test.editor.runCommand('document.formatCjk', tabOf(file()));
    expect(note).toBe('Formatted the CJK text (not saved yet)');
    const read = await test.call('document', { action: 'read', tabId: tabOf(file()) });
    expect(read.data).toMatchObject({ content: '中文 English 混排\n', dirty: true });
    expect(await readFile(file(), 'utf8')).toBe('中文English混排\n');
    expect(await test.editor.runCommand('document.formatCjk', tabOf(file()))).toMatch(/already formatted/);
  });

  it('refuses a tab that is not Markdown and a window with no tab, changing nothing', async () => {
    const refused = await domainErrorOf(test.editor.runCommand('document.formatCjk', tabOf(notes())));
    expect(refused.code).toBe('INVALID_TAB');
    expect((await domainErrorOf(test.editor.runCommand('document.formatCjk', null))).code).toBe(
      'INVALID_TAB',
    );
    const read = await test.call('document', { action: 'read', tabId: tabOf(notes()) });
    expect(read.data).toMatchObject({ content: '中文English混排\n', dirty: false });
  });

  it('is gone when the plugin is turned off', async () => {
    await test.host.plugins.setEnabled('document', false);
    await expect(test.editor.runCommand('document.formatCjk', null)).rejects.toThrow(
      'No running plugin has an editor command "document.formatCjk"',
    );
  });
});
