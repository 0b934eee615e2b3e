import { readFile, realpath, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { call, connectStdio, TempDirs } from './support/cli.js';

/*
 * Browser workflow files (ADR 42) through the built CLI and the real MCP SDK client: a
 * `.workflow.md` is its own kind, which document.read and document.write serve like any other,
 * byte for byte, while a plain `.md` beside it stays Markdown.
 */

const temp = new TempDirs();
afterAll(() => temp.cleanup());

const LOGIN = [
  '---',
  'site: shop',
  'inputs: [Email]',
  '---',
  '1. action: navigate to https://shop.example/login',
  '2. action: type {Email} into "Email" (textbox)',
  '3. confirm: enter "Password"',
  '',
].join('\n');

let workspace: string;
let flow: string;
let notes: string;
let client: Client;

beforeEach(async () => {
  workspace = await realpath(await temp.make('vmark-wf-vault-'));
  const home = await temp.make('vmark-wf-home-');
  flow = path.join(workspace, 'login.workflow.md');
  notes = path.join(workspace, 'notes.md');
  await writeFile(flow, LOGIN);
  await writeFile(notes, '---\nsite: not-a-workflow\n---\n# Notes\n');
  ({ client } = await connectStdio(['--workspace', workspace, '--open', flow, '--open', notes], home));
});
afterEach(() => client.close());

describe('the browser-workflow kind', () => {
  it('is listed among the supported kinds, and gives a .workflow.md its kind (a plain .md stays Markdown)', async () => {
    const { data } = await call(client, 'session', { action: 'get_state' });
    expect(data.capabilities).toMatchObject({
      supportedKinds: ['browser-workflow', 'markdown', 'text', 'yaml-workflow'],
    });
    const windows = data.windows as Array<{ tabs: Array<{ filePath: string; kind: string }> }>;
    expect(windows[0]!.tabs.map(({ filePath, kind }) => [path.basename(filePath), kind])).toEqual([
      ['login.workflow.md', 'browser-workflow'],
      ['notes.md', 'markdown'],
    ]);
  });

  it('is read and written by document.read / document.write, byte for byte on disk', async () => {
    const read = await call(client, 'document', { action: 'read', tabId: 'tab-1' });
    expect(read.data).toMatchObject({
      content: LOGIN,
      kind: 'browser-workflow',
      filePath: flow,
      dirty: false,
    });

    const next = LOGIN.replace(
      '3. confirm: enter "Password"',
      '3. confirm: enter "Password"\r\n4. extract: content',
    );
    const write = await call(client, 'document', {
      action: 'write',
      tabId: 'tab-1',
      content: next,
      expected_revision: read.data.revision,
    });
    expect(write.isError).toBe(false);
    expect(write.data).toMatchObject({ saved: true });
    expect(await readFile(flow, 'utf8')).toBe(next);
    expect((await call(client, 'document', { action: 'read', tabId: 'tab-1' })).data).toMatchObject({
      content: next,
      kind: 'browser-workflow',
    });
  });

  it('keeps the kind for a workflow that does not parse: the editor shows why, the text is the client’s', async () => {
    const read = await call(client, 'document', { action: 'read', tabId: 'tab-1' });
    const broken = 'site: no front matter\nAPI: x\n';
    const write = await call(client, 'document', {
      action: 'write',
      tabId: 'tab-1',
      content: broken,
      expected_revision: read.data.revision,
    });
    expect(write.data).toMatchObject({ saved: true });
    expect(await readFile(flow, 'utf8')).toBe(broken);
    expect((await call(client, 'document', { action: 'read', tabId: 'tab-1' })).data).toMatchObject({
      kind: 'browser-workflow',
    });
  });

  it('refuses a stale write, and the CJK transforms (no Markdown), changing nothing', async () => {
    const write = await call(client, 'document', {
      action: 'write',
      tabId: 'tab-1',
      content: 'lost',
      expected_revision: 'rev-AAAAAAAA',
    });
    expect(write.isError).toBe(true);
    expect(write.data).toMatchObject({ error: 'STALE' });
    const transform = await call(client, 'document', {
      action: 'transform',
      tabId: 'tab-1',
      kind: 'cjk-format',
    });
    expect(transform.isError).toBe(true);
    expect(transform.data.message).toContain('this tab is of kind "browser-workflow"');
    expect(await readFile(flow, 'utf8')).toBe(LOGIN);
  });
});
