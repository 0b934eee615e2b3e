import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { defineAction, defineTool } from '@vmark/sdk';
import { toolPlugin } from '@vmark/sdk/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHost, type Host } from '../composition/host.js';
import { type HttpEndpoint, serveHttp } from './http-endpoint.js';

let home: string;
let host: Host;
let endpoint: HttpEndpoint;

/** Calls of `hold` that have started, each waiting for its release. */
const held: Array<() => void> = [];
let onHeld: () => void = () => undefined;
const hold = defineTool({
  name: 'hold',
  title: 'Hold',
  description: 'Answers once the test lets it: a call that stays in flight.',
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  actions: {
    wait: defineAction({
      args: {},
      run: () =>
        new Promise<null>((release) => {
          held.push(() => release(null));
          onHeld();
        }),
    }),
  },
});

beforeEach(async () => {
  home = await mkdtemp(path.join(os.tmpdir(), 'vmark-http-'));
  const plugin = toolPlugin('hold-plugin', [hold]);
  host = await createHost({
    home,
    userPlugins: false,
    extraPlugins: [
      { source: 'inline', dir: null, raw: plugin.manifest, load: () => Promise.resolve(plugin.plugin) },
    ],
  });
});
afterEach(async () => {
  for (const release of held.splice(0)) release();
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

describe('serveHttp session cap', () => {
  /**
   * A `tools/call` that stays in flight until released. Resolves once the tool runs (so the
   * handler counts the call) with the response, whose stream ends with the answer.
   */
  async function callInFlight(sessionId: string): Promise<Response> {
    const running = new Promise<void>((resolve) => (onHeld = resolve));
    const answer = post(
      {
        jsonrpc: '2.0',
        id: 3,
        method: 'tools/call',
        params: { name: 'hold', arguments: { action: 'wait' } },
      },
      sessionId,
    );
    await running;
    return answer;
  }

  it('closes the least recently used idle session to make room for a new one', async () => {
    endpoint = await serveHttp(host, { port: 0, maxSessions: 2 });
    const older = await openSession();
    const newer = await openSession();
    expect(await ping(older)).toBe(200); // now `newer` is the one used least recently
    const third = await openSession();
    expect(await ping(newer)).toBe(404);
    expect(await ping(older)).toBe(200);
    expect(await ping(third)).toBe(200);
  });

  it('never closes a session with a call in flight, and refuses a new one when every session has one', async () => {
    endpoint = await serveHttp(host, { port: 0, maxSessions: 2 });
    const busy = await openSession();
    const idle = await openSession();
    const pending = await callInFlight(busy);
    expect(await ping(idle)).toBe(200); // `busy` is now the least recently used, but busy
    const third = await openSession();
    expect(await ping(idle)).toBe(404);
    const otherPending = await callInFlight(third);
    const refused = await post({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'late', version: '1' } },
    });
    expect(refused.status).toBe(503);
    expect(await refused.json()).toMatchObject({ error: { code: -32000, message: /Too many MCP sessions/ } });
    for (const release of held.splice(0)) release();
    // Released, both calls are answered on the sessions that were kept.
    for (const answer of [pending, otherPending]) {
      expect(answer.status).toBe(200);
      expect(await answer.text()).toContain('"result"');
    }
  });
});
