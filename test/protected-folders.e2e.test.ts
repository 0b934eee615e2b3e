// Attacks on the folders that hold authority (ADR 23), through a real MCP client against the built
// CLI: a workspace's .vmark/ (the coherence ledger) and $VMARK_HOME (settings, credentials, grants)
// cannot be opened, written, saved into or opened as a workspace through the tools.
import { access, mkdir, readFile, realpath, rename, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { call, connectStdio, TempDirs } from './support/cli.js';

const temp = new TempDirs();
afterAll(() => temp.cleanup());

let workspace: string;
let home: string;
let client: Client | undefined;
let segment: string;
const LEDGER_LINE = '{"format":0,"note":"the ledger as the person left it"}\n';

/** Every elicitation the host sent: a refusal must come before anyone is asked. */
let asked: string[];

async function start(): Promise<Client> {
  asked = [];
  ({ client } = await connectStdio(['--workspace', workspace], home, {
    elicitation: 'accept',
    onElicit: (message) => asked.push(message),
  }));
  return client;
}

afterEach(async () => {
  await client?.close();
  client = undefined;
});

function expectInvalidPath(
  result: { isError: boolean; data: Record<string, unknown> },
  reason: RegExp,
): void {
  expect(result.isError).toBe(true);
  expect(result.data).toMatchObject({ error: 'INVALID_PATH' });
  expect(result.data.message).toMatch(reason);
}

const LEDGER_REASON = /is inside a \.vmark folder, which holds a workspace coherence ledger/;
const HOME_REASON = /is inside VMark's own data folder \(VMARK_HOME/;

describe("a workspace's .vmark folder", () => {
  beforeEach(async () => {
    workspace = await realpath(await temp.make());
    home = await temp.make('vmark-home-');
    await writeFile(path.join(workspace, 'a.md'), '# A\n');
    await mkdir(path.join(workspace, '.vmark', 'ledger'), { recursive: true });
    segment = path.join(workspace, '.vmark', 'ledger', '0198c0de-0000-7000-8000-000000000001.jsonl');
    await writeFile(segment, LEDGER_LINE);
  });

  it('cannot be opened, in any spelling or through ../', async () => {
    const c = await start();
    for (const filePath of [
      segment,
      '.vmark/ledger/0198c0de-0000-7000-8000-000000000001.jsonl',
      'notes/../.vmark/ledger/0198c0de-0000-7000-8000-000000000001.jsonl',
      '.VMARK/ledger/0198c0de-0000-7000-8000-000000000001.jsonl',
      '.vmark/contexts/default.json',
    ]) {
      expectInvalidPath(await call(c, 'workspace', { action: 'open', filePath }), LEDGER_REASON);
    }
  });

  it('cannot be opened through a symlinked alias, nor written after a file is swapped for one', async () => {
    await symlink(segment, path.join(workspace, 'journal.md'));
    await symlink(path.join(workspace, '.vmark', 'ledger'), path.join(workspace, 'archive'));
    const c = await start();
    expectInvalidPath(
      await call(c, 'workspace', { action: 'open', filePath: path.join(workspace, 'journal.md') }),
      LEDGER_REASON,
    );
    expectInvalidPath(
      await call(c, 'workspace', {
        action: 'open',
        filePath: path.join(workspace, 'archive', path.basename(segment)),
      }),
      LEDGER_REASON,
    );

    // An innocent file, opened; then someone with a shell puts a link into the ledger in its place.
    const { tabId } = (await call(c, 'workspace', { action: 'open', filePath: path.join(workspace, 'a.md') }))
      .data as { tabId: string };
    await rename(path.join(workspace, 'a.md'), path.join(workspace, 'a.md.moved'));
    await symlink(segment, path.join(workspace, 'a.md'));
    const written = await call(c, 'document', { action: 'write', tabId, content: '{"forged":true}\n' });
    expect(written.data).toMatchObject({ saved: false, save_error: expect.stringMatching(LEDGER_REASON) });
    expectInvalidPath(await call(c, 'workspace', { action: 'save', tabId }), LEDGER_REASON);
    expect(await readFile(segment, 'utf8')).toBe(LEDGER_LINE);
  });

  it('cannot be created or written into with save_as, even with auto-approve on', async () => {
    await writeFile(
      path.join(home, 'settings.json'),
      JSON.stringify({ integrations: { autoApproveEdits: true } }),
    );
    const c = await start();
    const { tabId } = (await call(c, 'workspace', { action: 'new' })).data as { tabId: string };
    await call(c, 'document', { action: 'write', tabId, content: '{"forged":true}\n' });
    for (const filePath of [
      segment,
      path.join(workspace, '.vmark', 'ledger', 'forged.jsonl'),
      path.join(workspace, '.vmark', 'contexts.json'),
      path.join(workspace, '.Vmark', 'ledger', 'forged.jsonl'),
    ]) {
      expectInvalidPath(await call(c, 'workspace', { action: 'save_as', tabId, filePath }), LEDGER_REASON);
    }
    expect(await readFile(segment, 'utf8')).toBe(LEDGER_LINE);
    await expect(access(path.join(workspace, '.vmark', 'ledger', 'forged.jsonl'))).rejects.toThrow();
    // The same document saves anywhere else: the refusal is about the place, not the setting.
    const elsewhere = await call(c, 'workspace', { action: 'save_as', tabId, filePath: 'forged.md' });
    expect(elsewhere.isError).toBe(false);
  });

  it('cannot be opened as a workspace, nor a folder inside it; nobody is asked', async () => {
    const c = await start();
    for (const folderPath of [path.join(workspace, '.vmark'), path.join(workspace, '.vmark', 'ledger')]) {
      expectInvalidPath(await call(c, 'workspace', { action: 'open_workspace', folderPath }), LEDGER_REASON);
    }
    expect(asked).toEqual([]);
  });
});

describe('$VMARK_HOME', () => {
  beforeEach(async () => {
    workspace = await realpath(await temp.make());
    await writeFile(path.join(workspace, 'a.md'), '# A\n');
  });

  it('beside the workspace: cannot be opened as a workspace, nor any folder inside it', async () => {
    home = await realpath(await temp.make('vmark-home-'));
    await mkdir(path.join(home, 'plugins'));
    const c = await start();
    for (const folderPath of [home, path.join(home, 'plugins'), `${home}/.`]) {
      expectInvalidPath(await call(c, 'workspace', { action: 'open_workspace', folderPath }), HOME_REASON);
    }
    expect(asked).toEqual([]);
  });

  describe('inside the workspace (an AI must not switch on auto-approve itself)', () => {
    let settings: string;

    beforeEach(async () => {
      home = path.join(workspace, '.config', 'vmark');
      await mkdir(home, { recursive: true });
      settings = path.join(home, 'settings.json');
      await writeFile(settings, '{}\n');
    });

    it('settings.json cannot be opened, written or created through the tools', async () => {
      await symlink(settings, path.join(workspace, 'prefs.json'));
      const c = await start();
      for (const filePath of [
        settings,
        '.config/vmark/settings.json',
        '.CONFIG/VMARK/settings.json',
        'prefs.json',
      ]) {
        expectInvalidPath(await call(c, 'workspace', { action: 'open', filePath }), HOME_REASON);
      }
      const { tabId } = (await call(c, 'workspace', { action: 'new' })).data as { tabId: string };
      await call(c, 'document', {
        action: 'write',
        tabId,
        content: JSON.stringify({ integrations: { autoApproveEdits: true } }),
      });
      for (const filePath of [settings, path.join(home, 'providers.json'), path.join(home, 'plugins.json')]) {
        expectInvalidPath(await call(c, 'workspace', { action: 'save_as', tabId, filePath }), HOME_REASON);
      }
      expect(await readFile(settings, 'utf8')).toBe('{}\n');
      await expect(access(path.join(home, 'providers.json'))).rejects.toThrow();

      // Auto-approve is still off: a save to a new place still needs a person.
      const elsewhere = await call(c, 'workspace', { action: 'save_as', tabId, filePath: 'notes.json' });
      expect(elsewhere.isError).toBe(true);
      expect(elsewhere.data).toMatchObject({ error: 'APPROVAL_REQUIRED' });
    });

    it('cannot be opened as a workspace; the workspace around it opens', async () => {
      const c = await start();
      expectInvalidPath(
        await call(c, 'workspace', { action: 'open_workspace', folderPath: home }),
        HOME_REASON,
      );
      expectInvalidPath(
        await call(c, 'workspace', {
          action: 'open_workspace',
          folderPath: path.join(workspace, '.config', 'VMARK'),
        }),
        HOME_REASON,
      );
      expect(asked).toEqual([]);
      const opened = await call(c, 'workspace', { action: 'open', filePath: path.join(workspace, 'a.md') });
      expect(opened.isError).toBe(false);
    });
  });
});
