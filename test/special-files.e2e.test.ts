import { execFileSync } from 'node:child_process';
import { mkdir, readdir, readFile, realpath, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, connectStdio, TempDirs } from './support/cli.js';

/*
 * Files that are not regular files, in a workspace an AI client works in: a named pipe
 * blocks `open()` until a writer comes, and a handful of such opens used to tie up every
 * thread Node does file I/O on, so that each later open and save hung. Each must be refused
 * at once, and the host must go on answering.
 */

const temp = new TempDirs();
let vault: string;
let client: Client;
let socketServer: Server;
/** Device nodes need root; as another user that one case is left out (and says so). */
const asRoot = process.getuid?.() === 0;

beforeAll(async () => {
  vault = await realpath(await temp.make('vmark-special-'));
  await mkdir(path.join(vault, 'notes'));
  await writeFile(path.join(vault, 'notes', 'a.md'), '# A\n');
  execFileSync('mkfifo', [path.join(vault, 'notes', 'pipe.md')]);
  socketServer = createServer();
  await new Promise<void>((resolve) => socketServer.listen(path.join(vault, 'notes', 'socket.md'), resolve));
  if (asRoot) execFileSync('mknod', [path.join(vault, 'notes', 'zero.md'), 'c', '1', '5']);
  ({ client } = await connectStdio(['--workspace', vault], await temp.make()));
});
afterAll(async () => {
  await client?.close();
  socketServer?.close();
  await temp.cleanup();
});

const open = (name: string) =>
  call(client, 'workspace', { action: 'open', filePath: path.join(vault, 'notes', name) });

describe('a named pipe, a socket and a device node in the workspace', () => {
  it('are refused at once with a clear reason, again and again', async () => {
    for (let i = 0; i < 8; i++) {
      expect((await open('pipe.md')).data).toMatchObject({
        error: 'INVALID_PATH',
        message: expect.stringContaining('named pipe'),
      });
    }
    expect((await open('socket.md')).data).toMatchObject({
      error: 'INVALID_PATH',
      message: expect.stringContaining('socket'),
    });
    if (asRoot) {
      expect((await open('zero.md')).data).toMatchObject({
        error: 'INVALID_PATH',
        message: expect.stringContaining('device'),
      });
    }
  });

  it('leave the host answering: a file opens, is written and saved after them', async () => {
    for (let i = 0; i < 8; i++) await open('pipe.md');
    const opened = await open('a.md');
    expect(opened.isError).toBe(false);
    const { tabId } = opened.data as { tabId: string };
    const read = await call(client, 'document', { action: 'read', tabId });
    const written = await call(client, 'document', {
      action: 'write',
      tabId,
      content: '# A\n\nStill answering.\n',
      expected_revision: (read.data as { revision: string }).revision,
    });
    expect(written.data).toMatchObject({ saved: true });
    expect(await readFile(path.join(vault, 'notes', 'a.md'), 'utf8')).toBe('# A\n\nStill answering.\n');
  });

  it('are passed over by the coherence scan, which answers', async () => {
    const status = await call(client, 'coherence', { action: 'status', workspace_root: vault });
    expect(status.isError).toBe(false);
    const edges = await call(client, 'coherence', { action: 'edges', workspace_root: vault });
    expect(edges.isError).toBe(false);
  });

  it('stay as they were', async () => {
    const names = (await readdir(path.join(vault, 'notes'))).filter((n) => !n.startsWith('.')).sort();
    expect(names).toEqual(['a.md', 'pipe.md', 'socket.md', ...(asRoot ? ['zero.md'] : [])]);
  });
});
