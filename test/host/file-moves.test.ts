import { appendFileSync, readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FileRewrite } from '@vmark/sdk';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import documentPlugin from '../../plugins/document/src/index.js';
import { createHost, type Host } from '../../core/composition/host.js';
import { HostDocumentStore } from '../../core/documents/document-store.js';
import { CheckpointStore } from '../../core/history/checkpoint-store.js';
import { FileOperations } from '../../core/shell/server/file-operations.js';
import { HostHooksToken } from '../../core/tokens/host-tokens.js';
import { HostVault } from '../../core/vault/host-vault.js';

/*
 * A rename from the file list in a real host with the real document plugin: the plugin's
 * `filesMoved` tap rewrites the links to the note, the host writes each note through the guarded
 * path — and another program that appends to a linking note between the host's read and its
 * write loses nothing.
 */

const documentManifest: unknown = JSON.parse(
  readFileSync(new URL('../../plugins/document/manifest.json', import.meta.url), 'utf8'),
);

let home: string;
let workspace: string;
let host: Host;
let files: FileOperations;

beforeEach(async () => {
  home = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'vmark-moves-home-')));
  workspace = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'vmark-moves-ws-')));
  host = await createHost({
    home,
    userPlugins: false,
    extraPlugins: [
      { source: 'inline', dir: null, raw: documentManifest, load: () => Promise.resolve(documentPlugin) },
    ],
  });
  await host.workbench.openWorkspace(workspace);
  files = new FileOperations(
    { rootsOf: () => [workspace] },
    host.workbench,
    host.container.get(HostVault),
    host.container.get(HostDocumentStore),
    host.container.get(CheckpointStore),
    host.container.get(HostHooksToken),
    null,
  );
});
afterEach(async () => {
  await host.dispose();
  await fs.rm(home, { recursive: true, force: true });
  await fs.rm(workspace, { recursive: true, force: true });
});

const at = (relative: string) => path.join(workspace, ...relative.split('/'));
async function write(relative: string, text: string): Promise<void> {
  await fs.mkdir(path.dirname(at(relative)), { recursive: true });
  await fs.writeFile(at(relative), text);
}

describe('a rename from the file list with the document plugin', () => {
  it('updates the wikilinks and Markdown links to the note, one checkpoint a note', async () => {
    await write('notes/Plan.md', '# Plan\n');
    await write('index.md', '[[Plan]] and [p](notes/Plan.md#Goals)\n');
    await write('notes/todo.md', 'See [[Plan|the plan]].\n');
    await write('other.md', 'No links.\n');
    const moved = await files.rename('main', { path: at('notes/Plan.md'), name: 'Roadmap.md' });
    expect(moved.linkUpdate).toEqual({ links: 3, notes: 2, left: [] });
    expect(await fs.readFile(at('index.md'), 'utf8')).toBe('[[Roadmap]] and [p](notes/Roadmap.md#Goals)\n');
    expect(await fs.readFile(at('notes/todo.md'), 'utf8')).toBe('See [[Roadmap|the plan]].\n');
    const entries = await host.container.get(CheckpointStore).list();
    expect(entries.map((e) => path.basename(e.filePath ?? '')).sort()).toEqual(['index.md', 'todo.md']);
  });

  it('keeps what another program appends to a linking note while its links are rewritten', async () => {
    await write('notes/Plan.md', '# Plan\n');
    await write('index.md', 'See [[Plan]].\n');
    let appended = 0;
    // After the document plugin's tap: the other program writes right after the host read the note.
    host.container.get(HostHooksToken).filesMoved.tapPromise('outside-writer', (proposal) =>
      Promise.resolve({
        ...proposal,
        rewrites: proposal.rewrites.map((rewrite): FileRewrite => ({
          path: rewrite.path,
          rewrite: (text) => {
            const result = rewrite.rewrite(text);
            if (result !== null && appended++ === 0) appendFileSync(at(rewrite.path), 'Appended outside.\n');
            return result;
          },
        })),
      }),
    );
    const moved = await files.rename('main', { path: at('notes/Plan.md'), name: 'Roadmap.md' });
    expect(appended).toBe(2);
    expect(await fs.readFile(at('index.md'), 'utf8')).toBe('See [[Roadmap]].\nAppended outside.\n');
    expect(moved.linkUpdate).toEqual({ links: 1, notes: 1, left: [] });
  });
});
