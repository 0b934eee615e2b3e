import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectRaw, statusOf } from '../../../test/support/raw-http.js';
import { createHost, type Host } from '../../composition/host.js';
import { startUiServer, type UiServer } from './ui-server.js';

/*
 * `vmark serve`'s HTTP holds its connections and its MCP endpoint to the same limits as
 * `vmark mcp --http` (core/net/http-server.ts, core/mcp/mcp-http-handler.ts), shortened here.
 */

const LIMIT = 4096;
let home: string;
let host: Host;
let ui: UiServer;
let port: number;
const token = 'ui-server-test-token-0123456789abcdef';

beforeAll(async () => {
  home = await mkdtemp(path.join(os.tmpdir(), 'vmark-ui-server-'));
  const assets = path.join(home, 'assets');
  await mkdir(assets);
  for (const name of ['index.html', 'renderer.js', 'renderer.css'])
    await writeFile(path.join(assets, name), '');
  host = await createHost({ home, userPlugins: false });
  ui = await startUiServer(host, {
    port: 0,
    token,
    assetsDir: assets,
    timeouts: { headersMs: 300, requestMs: 600, keepAliveMs: 200 },
    mcp: { maxBodyBytes: LIMIT, maxSessions: 1 },
  });
  port = Number(new URL(ui.url).port);
});
afterAll(async () => {
  await ui.close();
  await host.dispose();
  await rm(home, { recursive: true, force: true });
});

const initialize = () =>
  fetch(ui.mcpUrl, {
    method: 'POST',
    headers: {
      Authorization: `Bearer ${token}`,
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'ui', version: '1' } },
    }),
  });

describe('the UI server’s HTTP limits', () => {
  it('closes a connection that never sends a request', async () => {
    const raw = await connectRaw(port);
    expect(statusOf(await raw.closed)).toBe(408);
  });

  it('answers 413 at /mcp to a declared size over the bound, and closes', async () => {
    const raw = await connectRaw(port);
    await raw.send(
      `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${token}\r\n` +
        `Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n` +
        `Content-Length: ${LIMIT + 1}\r\n\r\n`,
    );
    expect(statusOf(await raw.head())).toBe(413);
    await raw.closed;
  });

  it('caps MCP sessions, closing the idle one for a new one', async () => {
    const first = await initialize();
    await first.text();
    const second = await initialize();
    await second.text();
    expect(second.status).toBe(200);
    const ping = await fetch(ui.mcpUrl, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${token}`,
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
        'mcp-session-id': first.headers.get('mcp-session-id')!,
        'mcp-protocol-version': '2025-06-18',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' }),
    });
    expect(ping.status).toBe(404);
  });
});
