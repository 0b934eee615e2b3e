import { access, readdir, readFile, realpath, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { call, connectStdio, runCli, TempDirs } from './support/cli.js';
import { deriveAndChangeUpstream as deriveAndChangeUpstreamIn, installClient } from './support/coherence.js';

const temp = new TempDirs();
afterAll(() => temp.cleanup());

let workspace: string;
let home: string;
let client: Client | undefined;

beforeEach(async () => {
  workspace = await realpath(await temp.make());
  home = await temp.make('vmark-home-');
  await writeFile(path.join(workspace, 'elena.md'), '# Elena\n\nElena is a smith.\n');
  await writeFile(path.join(workspace, 'chapter-3.md'), '# Chapter 3\n');
});
afterEach(async () => {
  await client?.close();
  client = undefined;
});

const install = (name: string) => installClient(home, name);

async function connect(token?: string): Promise<Client> {
  ({ client } = await connectStdio(['--workspace', workspace], home, {
    env: token === undefined ? {} : { VMARK_MCP_TOKEN: token },
  }));
  return client;
}

const deriveAndChangeUpstream = (c: Client) => deriveAndChangeUpstreamIn(c, workspace);

describe('coherence end to end', () => {
  it('a derived document goes stale, a delegated client accepts the newer upstream, the receipt names the grant', async () => {
    const token = await install('e2e-client');
    const c = await connect(token);
    const edge = await deriveAndChangeUpstream(c);
    const resolve = { action: 'resolve', workspace_root: workspace, ...edge, resolution: 'accept-newer' };

    const refused = await call(c, 'coherence_resolve', resolve);
    expect(refused.isError).toBe(true);
    expect(refused.text).toBe('no live delegation authorizes "e2e-client" for resolve.accept-newer');

    const delegated = await runCli(
      [
        'coherence',
        'delegate',
        '--to',
        'e2e-client',
        '--scope',
        'resolve.accept-newer',
        '--expires',
        '7d',
        '--workspace',
        workspace,
        '--json',
      ],
      { VMARK_HOME: home },
    );
    expect(delegated.stderr).toBe('');
    expect(delegated.code).toBe(0);
    const { grant } = JSON.parse(delegated.stdout) as { grant: string };

    const accepted = await call(c, 'coherence_resolve', resolve);
    expect(accepted.isError).toBe(false);
    expect(JSON.parse(accepted.text)).toEqual({
      entry_id: expect.any(String),
      kind: 'ratification',
      resolved_against: expect.stringMatching(/^rev1:/),
    });
    expect(
      JSON.parse((await call(c, 'coherence', { action: 'edges', workspace_root: workspace })).text),
    ).toEqual([]);

    // The ledger line names the grant it was made under.
    const ledgerDir = path.join(workspace, '.vmark', 'ledger');
    const lines = (
      await Promise.all(
        (await readdir(ledgerDir))
          .filter((n) => n.endsWith('.jsonl'))
          .map((n) => readFile(path.join(ledgerDir, n), 'utf8')),
      )
    )
      .join('')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { id: string; kind: string; body: Record<string, unknown> });
    const entryId = (JSON.parse(accepted.text) as { entry_id: string }).entry_id;
    expect(lines.find((l) => l.id === entryId)).toMatchObject({
      kind: 'ratification',
      body: { delegation: grant, actor: { type: 'agent', id: 'e2e-client' } },
    });

    // The terminal sees the same workspace.
    const status = await runCli(['coherence', 'status', '--workspace', workspace, '--json'], {
      VMARK_HOME: home,
    });
    expect(JSON.parse(status.stdout)).toMatchObject({ initialized: true, objects: 2, open_items: 0 });
  });

  it('refuses a waiver without a reason, and every resolution from an anonymous client', async () => {
    const token = await install('e2e-client');
    const c = await connect(token);
    const edge = await deriveAndChangeUpstream(c);
    expect(
      (
        await runCli(
          [
            'coherence',
            'delegate',
            '--to',
            'e2e-client',
            '--scope',
            'resolve.waive',
            '--expires',
            '1h',
            '--workspace',
            workspace,
          ],
          { VMARK_HOME: home },
        )
      ).code,
    ).toBe(0);
    const waive = { action: 'resolve', workspace_root: workspace, ...edge, resolution: 'waive' };
    expect((await call(c, 'coherence_resolve', waive)).text).toBe('a waiver requires a reason (spec §5.4.3)');
    await client!.close();

    // The same edge, asked by a client without a credential.
    const anonymous = await connect();
    const out = await call(anonymous, 'coherence_resolve', { ...waive, reason: 'fine' });
    expect(out.isError).toBe(true);
    expect(out.text).toMatch(/no VMark client credential/);
  });

  it('a revoked credential names nobody', async () => {
    const token = await install('e2e-client');
    expect((await runCli(['mcp', 'uninstall', '--client', 'e2e-client'], { VMARK_HOME: home })).code).toBe(0);
    const c = await connect(token);
    const edge = await deriveAndChangeUpstream(c);
    const out = await call(c, 'coherence_resolve', {
      action: 'resolve',
      workspace_root: workspace,
      ...edge,
      resolution: 'accept-newer',
    });
    expect(out.text).toMatch(/no VMark client credential/);
  });

  it('delegate refuses a grant without an end, with an unknown scope, or for nobody', async () => {
    const run = (...args: string[]) =>
      runCli(['coherence', 'delegate', ...args, '--workspace', workspace], { VMARK_HOME: home });
    expect((await run('--to', 'x', '--scope', 'resolve.waive')).stderr).toMatch(/--expires/);
    expect((await run('--to', 'x', '--scope', 'resolve.claims', '--expires', '7d')).stderr).toMatch(
      /unknown scope/,
    );
    expect((await run('--to', ' ', '--scope', 'resolve.waive', '--expires', '7d')).stderr).toMatch(
      /--to CLIENT/,
    );
    expect((await run('--to', 'x', '--scope', 'resolve.waive', '--expires', 'never')).code).toBe(2);
    // Nothing was granted, so nothing was written.
    await expect(access(path.join(workspace, '.vmark'))).rejects.toThrow();
  });
});
