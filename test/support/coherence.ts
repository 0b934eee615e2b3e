import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { expect } from 'vitest';
import { call, runCli } from './cli.js';

/** `vmark mcp install --client NAME`: the config snippet's token, as a person would paste it. */
export async function installClient(home: string, name: string): Promise<string> {
  const installed = await runCli(['mcp', 'install', '--client', name], { VMARK_HOME: home });
  expect(installed.code).toBe(0);
  const snippet = JSON.parse(installed.stdout) as {
    mcpServers: { vmark: { command: string; args: string[]; env: Record<string, string> } };
  };
  // `vmark mcp`, by whichever command starts this CLI on this machine (cli-setup.e2e.test.ts).
  expect(snippet.mcpServers.vmark.args.at(-1)).toBe('mcp');
  return snippet.mcpServers.vmark.env.VMARK_MCP_TOKEN!;
}

/** `vmark coherence delegate` at a terminal; returns the grant id. */
export async function delegate(home: string, workspace: string, to: string, scope: string): Promise<string> {
  const delegated = await runCli(
    [
      'coherence',
      'delegate',
      '--to',
      to,
      '--scope',
      scope,
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
  return (JSON.parse(delegated.stdout) as { grant: string }).grant;
}

/**
 * The workspace holds elena.md and chapter-3.md: the client reads elena.md and writes chapter-3.md
 * from it, then someone edits elena.md outside VMark. Returns the stale edge.
 */
export async function deriveAndChangeUpstream(
  client: Client,
  workspace: string,
): Promise<{ txf: string; input: number }> {
  const open = async (file: string) =>
    (await call(client, 'workspace', { action: 'open', filePath: path.join(workspace, file) })).data
      .tabId as string;
  const elena = await open('elena.md');
  const chapter = await open('chapter-3.md');
  await call(client, 'document', { action: 'read', tabId: elena });
  await call(client, 'document', {
    action: 'write',
    tabId: chapter,
    content: '# Chapter 3\n\nElena forged a blade.\n',
  });
  expect(
    JSON.parse((await call(client, 'coherence', { action: 'edges', workspace_root: workspace })).text),
  ).toEqual([]);

  const file = path.join(workspace, 'elena.md');
  await writeFile(file, (await readFile(file, 'utf8')).replace('a smith', 'a baker'));
  const edges = await call(client, 'coherence', { action: 'edges', workspace_root: workspace });
  const rows = JSON.parse(edges.text) as Record<string, unknown>[];
  expect(rows).toEqual([
    expect.objectContaining({
      upstream_path: 'elena.md',
      downstream_path: 'chapter-3.md',
      state: 'version-stale',
    }),
  ]);
  return { txf: rows[0]!.txf as string, input: rows[0]!.input as number };
}

/** The ledger segment the installation of `home` appends to (vmark-notes §7.1). */
export async function ledgerSegment(workspace: string, home: string): Promise<string> {
  const writer = (await readFile(path.join(home, 'coherence-writer-id'), 'utf8')).trim();
  return path.join(workspace, '.vmark', 'ledger', `${writer}.jsonl`);
}
