import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { readFile, realpath, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, CLI, runCli, TempDirs } from './support/cli.js';
import { BUILTIN_TOOLS } from './support/builtin-tools.js';

const temp = new TempDirs();

describe('vmark mcp --http: Streamable HTTP on loopback behind a bearer token', () => {
  let server: ChildProcessWithoutNullStreams;
  let endpoint: { url: string; token: string };
  let notes: string;
  let workspace: string;
  let home: string;

  beforeAll(async () => {
    workspace = await realpath(await temp.make());
    home = await temp.make();
    notes = path.join(workspace, 'notes.md');
    await writeFile(notes, 'hello\n');
    server = spawn(process.execPath, [CLI, 'mcp', '--http', '--workspace', workspace, '--open', notes], {
      env: { ...process.env, VMARK_HOME: home },
    });
    const firstLine = await new Promise<string>((resolve) =>
      createInterface({ input: server.stdout }).once('line', resolve),
    );
    endpoint = JSON.parse(firstLine) as { url: string; token: string };
  });

  afterAll(async () => {
    server.kill();
    await temp.cleanup();
  });

  const connect = async (token = endpoint.token) => {
    const client = new Client({ name: 'vmark-e2e-http', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(endpoint.url), {
        requestInit: { headers: { Authorization: `Bearer ${token}` } },
      }),
    );
    return client;
  };

  it('listens on 127.0.0.1 at /mcp and prints the endpoint first', () => {
    expect(endpoint.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    expect(endpoint.token.length).toBeGreaterThanOrEqual(32);
  });

  it('serves the same tools, reads, writes and refuses a stale revision', async () => {
    const client = await connect();
    try {
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(BUILTIN_TOOLS);
      const read = await call(client, 'document', { action: 'read' });
      expect(read.data).toMatchObject({ content: 'hello\n', filePath: notes });
      const write = await call(client, 'document', {
        action: 'write',
        content: 'hi\n',
        expected_revision: read.data.revision,
      });
      expect(write.data).toMatchObject({ saved: true });
      expect(await readFile(notes, 'utf8')).toBe('hi\n');
      const stale = await call(client, 'document', {
        action: 'write',
        content: 'x',
        expected_revision: read.data.revision,
      });
      expect(stale.data).toMatchObject({ error: 'STALE', current_revision: write.data.revision });
    } finally {
      await client.close();
    }
  });

  it('gives each connection its own session over one shared host', async () => {
    const [a, b] = [await connect(), await connect()];
    try {
      const fromA = await call(a, 'document', { action: 'write', content: 'by A\n' });
      const fromB = await call(b, 'document', { action: 'read' });
      expect(fromB.data).toMatchObject({ content: 'by A\n', revision: fromA.data.revision });
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('an installed client\u2019s own credential opens the endpoint and names it to the tools; the host token names nobody', async () => {
    const installed = await runCli(['mcp', 'install', '--client', 'http-client'], { VMARK_HOME: home });
    const token = (JSON.parse(installed.stdout) as { mcpServers: { vmark: { env: Record<string, string> } } })
      .mcpServers.vmark.env.VMARK_MCP_TOKEN!;
    const resolve = {
      action: 'resolve',
      workspace_root: workspace,
      txf: '0198c0de-0000-7000-8000-00000000000a',
      input: 0,
      resolution: 'accept-newer',
    };
    const [named, anonymous] = [await connect(token), await connect()];
    try {
      expect((await call(named, 'coherence_resolve', resolve)).text).toBe(
        'no live delegation authorizes "http-client" for resolve.accept-newer',
      );
      expect((await call(anonymous, 'coherence_resolve', resolve)).text).toMatch(
        /no VMark client credential/,
      );
      // The session of one credential cannot be borrowed by another.
      const borrowed = await rawPost(
        { Authorization: `Bearer ${token}`, 'Mcp-Session-Id': anonymousSessionId(anonymous) },
        { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} },
      );
      expect(borrowed).toBe(403);
    } finally {
      await Promise.all([named.close(), anonymous.close()]);
    }
    // Revoked: the credential no longer opens the endpoint.
    await runCli(['mcp', 'uninstall', '--client', 'http-client'], { VMARK_HOME: home });
    expect(await rawPost({ Authorization: `Bearer ${token}` })).toBe(401);
  });

  const anonymousSessionId = (client: Client): string =>
    (client.transport as StreamableHTTPClientTransport).sessionId!;

  const rawPost = (headers: Record<string, string>, message?: object) =>
    new Promise<number>((resolve, reject) => {
      const body = JSON.stringify(
        message ?? {
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: {
            protocolVersion: '2025-06-18',
            capabilities: {},
            clientInfo: { name: 'raw', version: '1' },
          },
        },
      );
      const req = request(
        endpoint.url,
        {
          method: 'POST',
          headers: {
            'Content-Type': 'application/json',
            Accept: 'application/json, text/event-stream',
            ...headers,
          },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.end(body);
    });

  it("refuses requests without the token, with a wrong token, for another Host (DNS rebinding) or from another site's page", async () => {
    expect(await rawPost({})).toBe(401);
    expect(await rawPost({ Authorization: 'Bearer wrong' })).toBe(401);
    expect(await rawPost({ Authorization: `Bearer ${endpoint.token}x` })).toBe(401);
    expect(await rawPost({ Authorization: `Bearer ${endpoint.token}`, Host: 'evil.example:80' })).toBe(403);
    expect(await rawPost({ Authorization: `Bearer ${endpoint.token}`, Origin: 'http://evil.example' })).toBe(
      403,
    );
    expect(await rawPost({ Authorization: `Bearer ${endpoint.token}` })).toBe(200);
  });
});
