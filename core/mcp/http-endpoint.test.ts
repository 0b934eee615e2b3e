import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHost, type Host } from '../host.js';
import { type HttpEndpoint, serveHttp } from './http-endpoint.js';

let home: string;
let host: Host;
let endpoint: HttpEndpoint;

beforeEach(async () => {
  home = await mkdtemp(path.join(os.tmpdir(), 'vmark-http-'));
  host = await createHost({ home, userPlugins: false });
});
afterEach(async () => {
  await endpoint.close();
  await host.dispose();
  await rm(home, { recursive: true, force: true });
});

const post = (body: unknown, sessionId?: string) =>
  fetch(endpoint.url, {
    method: 'POST',
    headers: {
      Authorization: `Bearer ${endpoint.token}`,
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      ...(sessionId ? { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' } : {}),
    },
    body: JSON.stringify(body),
  });

async function openSession(): Promise<string> {
  const response = await post({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: {
      protocolVersion: '2025-06-18',
      capabilities: {},
      clientInfo: { name: 'idle-test', version: '1' },
    },
  });
  await response.text();
  return response.headers.get('mcp-session-id')!;
}

const ping = async (sessionId: string) => {
  const response = await post({ jsonrpc: '2.0', id: 2, method: 'ping' }, sessionId);
  await response.text();
  return response.status;
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('serveHttp sessions', () => {
  it('closes a session that stays idle, so a client that vanished leaves nothing behind', async () => {
    endpoint = await serveHttp(host, { port: 0, idleMs: 100 });
    const session = await openSession();
    expect(await ping(session)).toBe(200);
    // Polled, not timed: the sweep comes when it comes, and it must come. Each poll is
    // activity, so the pause between polls is kept longer than the idle limit.
    let status = 200;
    for (let waited = 0; status === 200 && waited < 10_000; waited += 300) {
      await sleep(300);
      status = await ping(session);
    }
    expect(status).toBe(404);
  });

  it('keeps a session that is in use', async () => {
    endpoint = await serveHttp(host, { port: 0, idleMs: 5_000 });
    const session = await openSession();
    for (let i = 0; i < 10; i++) {
      await sleep(50);
      expect(await ping(session)).toBe(200);
    }
  });
});
