import { mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { EditorMode } from '@vmark/sdk';
import { readManifest, startTestHost, type TestHost } from '@vmark/sdk/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HostDocumentStore } from '../../core/documents/document-store.js';
import { CheckpointRecorder } from '../../core/history/checkpoint-recorder.js';
import { CheckpointStore } from '../../core/history/checkpoint-store.js';
import { FocusedEditor } from '../../core/workbench/focused-editor.js';
import documentPlugin from '../../plugins/document/src/index.js';

/*
 * The selection tool over the host's real focused-editor service, which a test
 * feeds as a connected page would (the e2e test drives it from Chromium).
 */

const documentUnderTest = {
  manifest: readManifest(new URL('../../plugins/document/manifest.json', import.meta.url)),
  plugin: documentPlugin,
};
const TEXT = 'Hello world\n\nSecond paragraph\n';

let workspace: string;
let file: string;
let kit: TestHost;
let tabId: string;
const page = {};

beforeEach(async () => {
  workspace = await realpath(await mkdtemp(path.join(os.tmpdir(), 'vmark-selection-')));
  file = path.join(workspace, 'notes.md');
  await writeFile(file, TEXT);
  kit = await startTestHost({ plugins: [documentUnderTest], workspace, open: [file] });
  tabId = kit.host.workbench.resolveTab().id;
});
afterEach(async () => {
  await kit.dispose();
  await rm(workspace, { recursive: true, force: true });
});

/** The page shows `tab` in `mode` with `from..to` selected, at the document's current text. */
function select(from: number, to: number, mode: EditorMode = 'source', tab = tabId): void {
  const documentId = kit.host.workbench.resolveTab(tab).documentId;
  const document = kit.host.container.get(HostDocumentStore).get(documentId);
  kit.host.container.get(FocusedEditor).report(page, {
    tabId: tab,
    documentId,
    mode,
    from,
    to,
    focused: true,
    version: 0,
    revision: document.revision,
    length: document.content.length,
  });
}

const content = async () =>
  ((await kit.call('document', { action: 'read' })).data as { content: string }).content;
const revision = async () =>
  ((await kit.call('document', { action: 'read' })).data as { revision: string }).revision;

describe('selection.get', () => {
  it('returns exactly the selected Markdown source, with its offsets', async () => {
    select(6, 11);
    const result = await kit.call('selection', { action: 'get' });
    expect(result.isError).toBe(false);
    expect(result.data).toEqual({
      text: 'world',
      isEmpty: false,
      range: { from: 6, to: 11 },
      mode: 'source',
      kind: 'markdown',
      tabId,
      revision: await revision(),
    });
    select(0, 11, 'wysiwyg');
    expect((await kit.call('selection', { action: 'get', tabId })).data).toMatchObject({
      text: 'Hello world',
      mode: 'wysiwyg',
    });
  });

  it('returns an empty text for a cursor', async () => {
    select(5, 5);
    expect((await kit.call('selection', { action: 'get' })).data).toMatchObject({
      text: '',
      isEmpty: true,
      range: { from: 5, to: 5 },
    });
  });

  it('answers NO_EDITOR while no page shows an editor, in the words of the mode', async () => {
    expect((await kit.call('selection', { action: 'get' })).data).toEqual({
      error: 'NO_EDITOR',
      message: 'No active WYSIWYG editor for the focused tab',
    });
    const other = kit.host.workbench.newTab().tabId;
    select(0, 0, 'source', other);
    const result = await kit.call('selection', { action: 'get' });
    expect(result.isError).toBe(true);
    expect(result.data).toEqual({
      error: 'NO_EDITOR',
      message: 'No active source editor for the focused tab',
    });
  });

  it('answers INVALID_TAB for any tab but the focused one', async () => {
    select(0, 5);
    const other = kit.host.workbench.newTab().tabId;
    for (const id of [other, 'tab-404']) {
      expect((await kit.call('selection', { action: 'get', tabId: id })).data).toEqual({
        error: 'INVALID_TAB',
        message: 'tabId could not be resolved',
      });
    }
  });

  it('answers INVALID_TAB when no tab is open at all', async () => {
    kit.host.workbench.close(tabId);
    expect((await kit.call('selection', { action: 'get' })).data).toMatchObject({ error: 'INVALID_TAB' });
  });

  it('answers BUSY for a selection that counts in an older text', async () => {
    select(6, 11);
    await kit.call('document', { action: 'write', content: 'Changed\n', save: false });
    expect((await kit.call('selection', { action: 'get' })).data).toMatchObject({ error: 'BUSY' });
  });

  it.each([
    [{ action: 'get', tabId: '  ' }, 'tabId must be a non-empty string when provided'],
    [{ action: 'get', tabid: 'tab-1' }, 'tabid'],
    [{ action: 'pick' }, 'pick'],
  ])('refuses bad arguments: %j', async (args, words) => {
    select(0, 5);
    const result = await kit.call('selection', args);
    expect(result.isError).toBe(true);
    expect(result.text).toContain(words);
  });
});

describe('selection.set', () => {
  it('replaces the selection in source mode as one change and reports the replaced length', async () => {
    select(6, 11);
    const before = await revision();
    const result = await kit.call('selection', {
      action: 'set',
      content: 'there *you*',
      expected_revision: before,
    });
    expect(result.data).toEqual({ revision: await revision(), replaced_chars: 5 });
    expect(await content()).toBe('Hello there *you*\n\nSecond paragraph\n');
    expect((result.data as { revision: string }).revision).not.toBe(before);
    // Left in the editor, unsaved, as a person's edit would be.
    expect(await readFile(file, 'utf8')).toBe(TEXT);
    await kit.host.container.get(CheckpointRecorder).flush();
    const [checkpoint] = await kit.host.container.get(CheckpointStore).list();
    expect(checkpoint).toMatchObject({
      tool: 'selection.set',
      description: 'Replaced selection (+6 chars, was 5, now 11)',
      revisionBefore: before,
    });
  });

  it('refuses a stale revision before anything else, and changes nothing', async () => {
    select(6, 11);
    const read = await revision();
    await kit.call('document', { action: 'write', content: 'Typed meanwhile\n', save: false });
    select(0, 5);
    const result = await kit.call('selection', { action: 'set', content: 'X', expected_revision: read });
    expect(result.isError).toBe(true);
    expect(result.structured).toEqual({
      error: 'STALE',
      message: 'Document has changed since the last read',
      current_revision: await revision(),
    });
    expect(result.text).toMatch(/^STALE: the document changed since your last read/);
    expect(await content()).toBe('Typed meanwhile\n');
  });

  it('deletes the selection with empty content, and inserts at a cursor', async () => {
    select(5, 11);
    expect((await kit.call('selection', { action: 'set', content: '' })).data).toMatchObject({
      replaced_chars: 6,
    });
    expect(await content()).toBe('Hello\n\nSecond paragraph\n');
    select(5, 5);
    expect((await kit.call('selection', { action: 'set', content: ', you' })).data).toMatchObject({
      replaced_chars: 0,
    });
    expect(await content()).toBe('Hello, you\n\nSecond paragraph\n');
  });

  it('keeps plain text literal in wysiwyg mode and inserts Markdown as Markdown', async () => {
    select(6, 11, 'wysiwyg');
    await kit.call('selection', { action: 'set', content: '5 * 3 = [x]' });
    expect(await content()).toBe('Hello 5 \\* 3 = \\[x\\]\n\nSecond paragraph\n');
    select(0, 5, 'wysiwyg');
    await kit.call('selection', { action: 'set', content: '**Bye**' });
    expect(await content()).toMatch(/^\*\*Bye\*\* 5/);
  });

  it('refuses INVALID_TAB and NO_EDITOR without changing the text', async () => {
    const other = kit.host.workbench.newTab().tabId;
    expect((await kit.call('selection', { action: 'set', tabId: other, content: 'X' })).data).toMatchObject({
      error: 'INVALID_TAB',
    });
    expect((await kit.call('selection', { action: 'set', content: 'X' })).data).toMatchObject({
      error: 'NO_EDITOR',
    });
    expect(await content()).toBe(TEXT);
  });

  it.each([
    [{ action: 'set' }, 'content (string) is required'],
    [{ action: 'set', content: 7 }, 'content (string) is required'],
    [
      { action: 'set', content: 'X', expected_revision: 'latest' },
      'expected_revision must be a revision token',
    ],
    [{ action: 'set', content: 'X', save: true }, 'save'],
  ])('refuses bad arguments and changes nothing: %j', async (args, words) => {
    select(0, 5);
    const result = await kit.call('selection', args);
    expect(result.isError).toBe(true);
    expect(result.text).toContain(words);
    expect(await content()).toBe(TEXT);
  });
});
