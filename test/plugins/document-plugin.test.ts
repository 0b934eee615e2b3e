import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { definePlugin } from '@vmark/sdk';
import { readManifest, startTestHost, type TestHost } from '@vmark/sdk/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import workflowPlugin from '../../plugins/workflow/src/index.js';
import documentPlugin from '../../plugins/document/src/index.js';

const documentUnderTest = {
  manifest: readManifest(new URL('../../plugins/document/manifest.json', import.meta.url)),
  plugin: documentPlugin,
};
const workflowUnderTest = {
  manifest: readManifest(new URL('../../plugins/workflow/manifest.json', import.meta.url)),
  plugin: workflowPlugin,
};

let workspace: string;
let kit: TestHost;

beforeEach(async () => {
  workspace = await realpath(await mkdtemp(path.join(os.tmpdir(), 'vmark-doc-')));
});
afterEach(async () => {
  await kit.dispose();
  await rm(workspace, { recursive: true, force: true });
});

describe('document.write', () => {
  it('reports save_skipped "untitled" for an untitled tab and keeps the text', async () => {
    kit = await startTestHost({ plugins: [documentUnderTest, workflowUnderTest] });
    const { tabId } = kit.host.workbench.newTab();
    const write = await kit.call('document', { action: 'write', tabId, content: '# Draft\n' });
    expect(write.data).toEqual({
      revision: expect.stringMatching(/^rev-/),
      saved: false,
      save_skipped: 'untitled',
    });
    const state = await kit.call('session', { action: 'get_state' });
    expect(state.data).toMatchObject({
      windows: [{ tabs: [{ id: tabId, filePath: null, title: 'Untitled', dirty: true, kind: 'markdown' }] }],
    });
  });

  it('detects the kind again from the incoming text', async () => {
    kit = await startTestHost({ plugins: [documentUnderTest, workflowUnderTest] });
    const { tabId } = kit.host.workbench.newTab();
    const yaml = 'name: CI\non: push\njobs:\n  build:\n    runs-on: ubuntu-latest\n';
    await kit.call('document', { action: 'write', tabId, content: yaml });
    expect((await kit.call('document', { action: 'read', tabId })).data).toMatchObject({
      kind: 'yaml-workflow',
      content: yaml,
    });
    await kit.call('document', { action: 'write', tabId, content: '# back to prose\n' });
    expect((await kit.call('document', { action: 'read', tabId })).data).toMatchObject({ kind: 'markdown' });
  });

  it('keeps the revision when the text is unchanged, and never revives an old revision', async () => {
    const file = path.join(workspace, 'a.md');
    await writeFile(file, 'A\n');
    kit = await startTestHost({ plugins: [documentUnderTest], workspace, open: [file] });
    const a = (await kit.call('document', { action: 'read' })).data as { revision: string };
    const same = await kit.call('document', {
      action: 'write',
      content: 'A\n',
      expected_revision: a.revision,
    });
    expect(same.data).toEqual({ revision: a.revision, saved: true });
    const b = (await kit.call('document', { action: 'write', content: 'B\n' })).data as { revision: string };
    const backToA = (await kit.call('document', { action: 'write', content: 'A\n' })).data as {
      revision: string;
    };
    expect(new Set([a.revision, b.revision, backToA.revision]).size).toBe(3);
    const stale = await kit.call('document', {
      action: 'write',
      content: 'C\n',
      expected_revision: a.revision,
    });
    expect(stale.data).toEqual({
      error: 'STALE',
      message: expect.any(String),
      current_revision: backToA.revision,
    });
  });

  it('reads workflow files as yaml-workflow by their path', async () => {
    const file = path.join(workspace, '.github', 'workflows', 'ci.yml');
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, '# just a comment\n');
    kit = await startTestHost({ plugins: [documentUnderTest, workflowUnderTest], workspace, open: [file] });
    expect((await kit.call('document', { action: 'read' })).data).toMatchObject({
      kind: 'yaml-workflow',
      filePath: file,
    });
    expect((await kit.call('session', { action: 'get_state' })).data).toMatchObject({
      capabilities: { supportedKinds: ['markdown', 'text', 'yaml-workflow'] },
    });
  });

  it('lets another plugin veto a write through the beforeDocumentWrite hook; nothing changes', async () => {
    const file = path.join(workspace, 'locked.md');
    await writeFile(file, 'keep me\n');
    const guard = definePlugin({
      activate(context) {
        context.hooks.tapWaterfall('beforeDocumentWrite', (proposal) =>
          proposal.document.filePath?.endsWith('locked.md')
            ? { ...proposal, veto: 'locked by policy' }
            : proposal,
        );
      },
    });
    const guardManifest = {
      id: 'guard',
      name: 'Guard',
      version: '1.0.0',
      engines: { host: '^1.0.0' },
      main: 'inline',
    };
    kit = await startTestHost({
      plugins: [documentUnderTest, { manifest: guardManifest, plugin: guard }],
      workspace,
      open: [file],
    });
    const before = (await kit.call('document', { action: 'read' })).data as { revision: string };
    const write = await kit.call('document', { action: 'write', content: 'changed\n' });
    expect(write.isError).toBe(true);
    expect(write.data).toEqual({ error: 'READ_ONLY', message: 'The change was refused: locked by policy' });
    expect((await kit.call('document', { action: 'read' })).data).toMatchObject({
      content: 'keep me\n',
      revision: before.revision,
    });
    expect(await readFile(file, 'utf8')).toBe('keep me\n');

    await kit.host.plugins.setEnabled('guard', false);
    expect((await kit.call('document', { action: 'write', content: 'changed\n' })).data).toMatchObject({
      saved: true,
    });
  });

  it('refuses to write when no tab is open', async () => {
    kit = await startTestHost({ plugins: [documentUnderTest] });
    const result = await kit.call('document', { action: 'write', content: 'x' });
    expect(result.data).toEqual({ error: 'INVALID_TAB', message: 'No focused tab' });
  });
});

describe('document.read', () => {
  it('bounds a large document to the output limit with the do-not-write-back hint', async () => {
    const file = path.join(workspace, 'big.md');
    await writeFile(file, 'lorem ipsum dolor sit amet\n'.repeat(10_000));
    kit = await startTestHost({ plugins: [documentUnderTest], workspace, open: [file] });
    const read = await kit.call('document', { action: 'read' });
    expect(read.isError).toBe(false);
    expect(Buffer.byteLength(read.text)).toBeLessThanOrEqual(75_000);
    expect(read.data).toMatchObject({ truncated: true, bytes_total: expect.any(Number) as number });
    expect((read.data as { truncation_note: string }).truncation_note).toMatch(
      /do not write back from this read/,
    );
  });
});

describe('document.read in windows', () => {
  /** Some 286,000 characters, CJK and Latin mixed, with a character outside the BMP in every line. */
  const big = Array.from({ length: 9_000 }, (_, i) => `第${i}行 line ${i} 😀 lorem ipsum\n`).join('');

  async function openBig(): Promise<string> {
    const file = path.join(workspace, 'big.md');
    await writeFile(file, big);
    kit = await startTestHost({ plugins: [documentUnderTest], workspace, open: [file] });
    return file;
  }

  it('reads a document too large for one answer, window by window, to the whole text', async () => {
    await openBig();
    const whole = await kit.call('document', { action: 'read' });
    expect(whole.data).toMatchObject({ truncated: true });
    expect((whole.data as { truncation_note: string }).truncation_note).toMatch(
      /`document\.read` with `offset: 0, length: 20000`, then with `offset: next_offset`/,
    );

    let text = '';
    let offset: number | undefined = 0;
    let windows = 0;
    while (offset !== undefined) {
      const window = await kit.call('document', { action: 'read', offset, length: 20_000 });
      expect(window.isError).toBe(false);
      expect(Buffer.byteLength(window.text)).toBeLessThanOrEqual(75_000);
      const data = window.structured as {
        content: string;
        offset: number;
        length: number;
        next_offset?: number;
      };
      expect(data).toMatchObject({
        offset,
        total_length: big.length,
        revision: expect.stringMatching(/^rev-/),
      });
      expect(data.length).toBe(data.content.length);
      text += data.content;
      offset = data.next_offset;
      windows += 1;
    }
    expect(text).toBe(big);
    expect(windows).toBe(Math.ceil(big.length / 20_000));
  });

  it('answers exactly as before when neither offset nor length is given', async () => {
    const file = path.join(workspace, 'a.md');
    await writeFile(file, '# A\n');
    kit = await startTestHost({ plugins: [documentUnderTest], workspace, open: [file] });
    const read = await kit.call('document', { action: 'read' });
    const { revision } = read.structured as { revision: string };
    const today = { content: '# A\n', revision, filePath: file, kind: 'markdown', dirty: false };
    expect(read.text).toBe(JSON.stringify(today, null, 2));
    expect(Object.keys(read.structured!)).toEqual(Object.keys(today));
  });

  it.each([
    [{ offset: -1 }, /^offset must be an integer of 0 or more/],
    [{ offset: 2.5 }, /^offset must be an integer of 0 or more/],
    [{ offset: '10' }, /^offset must be an integer of 0 or more/],
    [{ length: 0 }, /^length must be an integer of 1 or more/],
    [{ length: -5 }, /^length must be an integer of 1 or more/],
    [{ offset: 5, length: 1.5 }, /^length must be an integer of 1 or more/],
    [{ offset: 900_000 }, /^offset 900000 is past the end of the document \(total_length \d+\)$/],
    // `第0行 line 0 ` is 11 units; the emoji's two halves are at 11 and 12.
    [
      { offset: 12, length: 10 },
      /^offset 12 falls inside a character outside the BMP .*use offset 11 or 13$/,
    ],
    [{ offset: 0, length: 12 }, /^the window would end at 12, inside a character outside the BMP/],
  ])('refuses %j with a plain argument error', async (window, message) => {
    await openBig();
    const out = await kit.call('document', { action: 'read', ...window });
    expect(out.isError).toBe(true);
    expect(out.structured).toBeUndefined();
    expect(out.text).toMatch(message);
  });
});

describe('session.get_state', () => {
  it('ignores stray arguments, like the original', async () => {
    kit = await startTestHost({ plugins: [documentUnderTest] });
    const result = await kit.call('session', { action: 'get_state', verbose: true });
    expect(result.isError).toBe(false);
    expect(result.data).toMatchObject({
      windows: [{ label: 'main', focused: true, activeWorkspaceInstanceId: null, tabs: [] }],
    });
  });
});
