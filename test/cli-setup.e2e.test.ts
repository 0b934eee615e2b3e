import { mkdir, realpath, symlink, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILTIN_TOOLS } from './support/builtin-tools.js';
import { CLI, runCli, TempDirs } from './support/cli.js';

/*
 * What a newcomer meets while setting vmark up: a port that is taken, the MCP entry that
 * `vmark mcp install` prints, a credential that names nobody, a user plugin that breaks.
 */

const temp = new TempDirs();
afterAll(() => temp.cleanup());

describe('a port already in use', () => {
  let taken: Server;
  let port: number;
  beforeAll(async () => {
    taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    port = (taken.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => taken.close(() => resolve())));

  it.each([['serve'], ['mcp', '--http']])(
    'vmark %s --port N says so in one line, without a stack trace, exits 1 and leaves no host behind',
    async (...command) => {
      const home = await temp.make('vmark-port-home-');
      const result = await runCli([...command, '--port', String(port)], { VMARK_HOME: home });
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toBe(
        `vmark: port ${port} on 127.0.0.1 is in use; choose another with --port (0 picks a free one)\n`,
      );
      const hosts = await runCli(['approvals', 'list'], { VMARK_HOME: home });
      expect(hosts.stdout).toContain('no running vmark host');
    },
  );
});

interface ServerEntry {
  command: string;
  args: string[];
  env: Record<string, string>;
}

async function install(home: string, env: Record<string, string>): Promise<ServerEntry> {
  const installed = await runCli(['mcp', 'install', '--client', 'newcomer'], { VMARK_HOME: home, ...env });
  expect(installed.code).toBe(0);
  return (JSON.parse(installed.stdout) as { mcpServers: { vmark: ServerEntry } }).mcpServers.vmark;
}

/** Starts the entry as an MCP client does: its command, its args, its env, and nothing else of ours. */
async function connect(
  entry: ServerEntry,
  PATH: string,
): Promise<{ client: Client; stderr: () => Promise<string> }> {
  const transport = new StdioClientTransport({
    command: entry.command,
    args: [...entry.args, '--workspace', await temp.make()],
    env: { PATH, ...entry.env },
    stderr: 'pipe',
  });
  let stderr = '';
  const ended = new Promise<void>((resolve) => {
    transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    transport.stderr?.on('end', resolve);
  });
  const client = new Client({ name: 'newcomer', version: '1.0.0' });
  await client.connect(transport);
  return {
    client,
    /** All the server wrote on stderr, once the client has closed it. */
    stderr: async () => {
      await client.close();
      await ended;
      return stderr;
    },
  };
}

describe('vmark mcp install', () => {
  /** A PATH with Node but no vmark, as on a machine where vmark runs from a checkout. */
  const nodeOnly = path.dirname(process.execPath);

  it('names this Node and this CLI by absolute path when vmark is not on PATH, and that entry starts', async () => {
    const home = await temp.make('vmark-install-home-');
    const entry = await install(home, { PATH: nodeOnly });
    expect(entry.command).toBe(process.execPath);
    expect(entry.args).toEqual([await realpath(CLI), 'mcp']);
    const { client, stderr } = await connect(entry, nodeOnly);
    expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual([...BUILTIN_TOOLS].sort());
    await stderr();
  });

  it('names vmark when the vmark on PATH is this CLI', async () => {
    const home = await temp.make('vmark-install-home-');
    const bin = await temp.make('vmark-bin-');
    await symlink(CLI, path.join(bin, 'vmark'));
    const PATH = `${bin}${path.delimiter}${nodeOnly}`;
    const entry = await install(home, { PATH });
    expect(entry).toMatchObject({ command: 'vmark', args: ['mcp'] });
    const { client, stderr } = await connect(entry, PATH);
    expect((await client.listTools()).tools.length).toBe(BUILTIN_TOOLS.length);
    await stderr();
  });

  it('does not name the vmark that npx puts on PATH for its own run', async () => {
    const bin = path.join(await temp.make('vmark-project-'), 'node_modules', '.bin');
    await mkdir(bin, { recursive: true });
    await symlink(CLI, path.join(bin, 'vmark'));
    const entry = await install(await temp.make('vmark-install-home-'), {
      PATH: `${bin}${path.delimiter}${nodeOnly}`,
    });
    expect(entry.command).toBe(process.execPath);
  });

  it('does not name a vmark on PATH that is another program', async () => {
    const bin = await temp.make('vmark-bin-');
    await writeFile(path.join(bin, 'vmark'), '#!/bin/sh\nexit 1\n', { mode: 0o755 });
    const entry = await install(await temp.make('vmark-install-home-'), {
      PATH: `${bin}${path.delimiter}${nodeOnly}`,
    });
    expect(entry.command).toBe(process.execPath);
  });
});

describe('VMARK_MCP_TOKEN', () => {
  const PATH = path.dirname(process.execPath);

  it('says on stderr that a credential matches no installed client, and serves the session anonymously', async () => {
    const home = await temp.make('vmark-token-home-');
    const entry = await install(home, {});
    const wrong = { ...entry, env: { ...entry.env, VMARK_MCP_TOKEN: 'not-the-credential' } };
    const { client, stderr } = await connect(wrong, PATH);
    expect((await client.listTools()).tools.length).toBe(BUILTIN_TOOLS.length);
    const log = await stderr();
    expect(log).toContain(
      `vmark: VMARK_MCP_TOKEN matches no installed client of VMARK_HOME=${home} (see vmark mcp clients)`,
    );
    // The credential itself is a secret: never printed.
    expect(log).not.toContain('not-the-credential');
  });

  it('says nothing of the installed client’s own credential', async () => {
    const home = await temp.make('vmark-token-home-');
    const { client, stderr } = await connect(await install(home, {}), PATH);
    await client.listTools();
    expect(await stderr()).not.toContain('VMARK_MCP_TOKEN');
  });
});

describe('vmark --health-check', () => {
  it('reports a user plugin that fails as degraded, lists it, and exits 0: the host itself started', async () => {
    const home = await temp.make('vmark-health-home-');
    const dir = path.join(home, 'plugins', 'broken');
    await mkdir(dir, { recursive: true });
    await writeFile(
      path.join(dir, 'manifest.json'),
      JSON.stringify({
        id: 'broken',
        name: 'Broken',
        version: '1.0.0',
        engines: { host: '^1.0.0' },
        main: 'main.js',
      }),
    );
    await writeFile(path.join(dir, 'main.js'), "throw new Error('this plugin is broken');\n");
    const result = await runCli(['--health-check'], { VMARK_HOME: home });
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout) as { status: string; toolCount: number; problems: unknown[] };
    expect(report.status).toBe('degraded');
    expect(report.toolCount).toBe(BUILTIN_TOOLS.length);
    expect(report.problems).toEqual([
      { plugin: 'broken', message: expect.stringContaining('this plugin is broken') },
    ]);
  });

  it('exits 1 with status error when the host cannot start', async () => {
    // VMARK_HOME under a regular file: the host has nowhere to keep anything.
    const file = path.join(await temp.make('vmark-health-'), 'a-file');
    await writeFile(file, '');
    const result = await runCli(['--health-check'], { VMARK_HOME: path.join(file, 'home') });
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)).toMatchObject({ status: 'error' });
  });
});
