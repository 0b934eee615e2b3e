import { createServer } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeHostFile } from '../control/host-file.js';
import { createHost, type Host } from '../composition/host.js';
import { listenOnLoopback } from '../net/listen-on-loopback.js';
import { type HttpEndpoint, serveHttp } from './http-endpoint.js';
import { findServeHost } from './serve-host-finder.js';

let home: string;
let host: Host;
let endpoint: HttpEndpoint;

beforeEach(async () => {
  home = await mkdtemp(path.join(os.tmpdir(), 'vmark-finder-'));
  host = await createHost({ home, userPlugins: false });
  endpoint = await serveHttp(host, { port: 0 });
});
afterEach(async () => {
  await endpoint.close();
  await host.dispose();
  await rm(home, { recursive: true, force: true });
});

/** This test process stands in for the running host: its pid is alive. */
const announce = (serve: { mcpUrl: string; token: string }) =>
  writeHostFile(home, {
    pid: process.pid,
    port: 1,
    token: 'control-token',
    version: '0.1.0',
    startedAt: new Date().toISOString(),
    serve: { uiUrl: serve.mcpUrl.replace('/mcp', '/?token=x'), workspaceRoots: [], ...serve },
  });

describe('findServeHost', () => {
  it('finds nothing in a fresh VMARK_HOME', async () => {
    expect(await findServeHost(home)).toBeNull();
  });

  it('finds a live host whose endpoint accepts its token', async () => {
    await announce({ mcpUrl: endpoint.url, token: endpoint.token });
    expect(await findServeHost(home)).toMatchObject({ pid: process.pid, mcpUrl: endpoint.url });
  });

  it('passes over a host whose endpoint refuses the announced token', async () => {
    await announce({ mcpUrl: endpoint.url, token: 'stale-token' });
    expect(await findServeHost(home)).toBeNull();
  });

  it('passes over a host whose endpoint is not an MCP endpoint of ours, or does not answer', async () => {
    const other = createServer((_req, res) => res.writeHead(200).end('hello'));
    const port = await listenOnLoopback(other, 0);
    try {
      await announce({ mcpUrl: `http://127.0.0.1:${port}/mcp`, token: endpoint.token });
      expect(await findServeHost(home)).toBeNull();
    } finally {
      await new Promise<void>((resolve) => other.close(() => resolve()));
    }
    // Nothing listens there any more.
    await announce({ mcpUrl: `http://127.0.0.1:${port}/mcp`, token: endpoint.token });
    expect(await findServeHost(home)).toBeNull();
  });
});
