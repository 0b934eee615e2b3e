import { mkdtemp, rm } from 'node:fs/promises';
import { request } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectRaw, statusOf } from '../../test/support/raw-http.js';
import { createHost, type Host } from '../composition/host.js';
import { type HttpEndpoint, serveHttp } from './http-endpoint.js';

let home: string;
let host: Host;
let endpoint: HttpEndpoint;

beforeAll(async () => {
  home = await mkdtemp(path.join(os.tmpdir(), 'vmark-mcp-handler-'));
  host = await createHost({ home, userPlugins: false });
  endpoint = await serveHttp(host, { port: 0 });
});
afterAll(async () => {
  await endpoint.close();
  await host.dispose();
  await rm(home, { recursive: true, force: true });
});

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
});

/** A raw POST, so that Host and Origin can be anything a hostile page could send. */
function post(headers: Record<string, string>, pathname = '/mcp'): Promise<{ status: number; body: string }> {
  const { port } = new URL(endpoint.url);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: pathname,
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...headers,
        },
      },
      (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.end(INITIALIZE);
  });
}

describe('McpHttpHandler', () => {
  const bearer = () => ({ authorization: `Bearer ${endpoint.token}` });

  it('opens a session for the right token', async () => {
    expect((await post(bearer())).status).toBe(200);
  });

  it('refuses a missing, wrong or malformed token with 401', async () => {
    expect((await post({})).status).toBe(401);
    expect((await post({ authorization: 'Bearer wrong' })).status).toBe(401);
    expect((await post({ authorization: endpoint.token })).status).toBe(401);
    expect((await post({ authorization: `Basic ${endpoint.token}` })).status).toBe(401);
  });

  it('refuses a foreign Host (DNS rebinding) or Origin (another site) with 403, even with the token', async () => {
    const { port } = new URL(endpoint.url);
    expect((await post({ ...bearer(), host: `attacker.example:${port}` })).status).toBe(403);
    expect((await post({ ...bearer(), origin: 'http://attacker.example' })).status).toBe(403);
    expect((await post({ ...bearer(), origin: `http://127.0.0.1:${port}` })).status).toBe(200);
  });

  it('never echoes the token in a refusal', async () => {
    const { body } = await post({ authorization: 'Bearer wrong' });
    expect(body).not.toContain(endpoint.token);
  });

  it('serves nothing but /mcp', async () => {
    expect((await post(bearer(), '/other')).status).toBe(404);
  });
});

describe('McpHttpHandler message size', () => {
  const LIMIT = 4096;
  let small: HttpEndpoint;
  beforeAll(async () => {
    small = await serveHttp(host, { port: 0, maxBodyBytes: LIMIT });
  });
  afterAll(async () => {
    await small.close();
  });

  /** Request headers with the token, as an SDK client sends them, and `more` (length or chunking). */
  const head = (target: HttpEndpoint, more: string) =>
    `POST /mcp HTTP/1.1\r\nHost: ${new URL(target.url).host}\r\nAuthorization: Bearer ${target.token}\r\n` +
    `Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n${more}\r\n`;

  /** Opens a session on `target`; `call` sends one ping with `params` in it. */
  async function sessionOn(target: HttpEndpoint) {
    const headers = {
      Authorization: `Bearer ${target.token}`,
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
    };
    const opened = await fetch(target.url, { method: 'POST', headers, body: INITIALIZE });
    await opened.text();
    const session = {
      ...headers,
      'mcp-session-id': opened.headers.get('mcp-session-id')!,
      'mcp-protocol-version': '2025-06-18',
    };
    return {
      call: (params: unknown) =>
        fetch(target.url, {
          method: 'POST',
          headers: session,
          body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping', params }),
        }),
    };
  }

  it('takes a message over the MCP SDK’s own 4 MiB limit, as stdio does', async () => {
    const { call } = await sessionOn(endpoint);
    const answer = await call({ _meta: { pad: 'x'.repeat(5 * 1024 * 1024) } });
    expect(answer.status).toBe(200);
    expect(await answer.text()).toContain('"result":{}');
  });

  it('answers 413 to a declared Content-Length over the bound without waiting for the body, and closes', async () => {
    const raw = await connectRaw(Number(new URL(small.url).port));
    await raw.send(head(small, `Content-Length: ${LIMIT + 1}\r\n`));
    const answer = await raw.head();
    expect(statusOf(answer)).toBe(413);
    expect(answer).toMatch(/\r\nConnection: close\r\n/i);
    expect(await raw.closed).toContain(`an MCP message may be at most ${LIMIT} bytes`);
  });

  it('answers 413 once the received body passes the bound, without reading the rest, and closes', async () => {
    const raw = await connectRaw(Number(new URL(small.url).port));
    await raw.send(head(small, 'Transfer-Encoding: chunked\r\n'));
    const chunk = 'x'.repeat(1024);
    for (let sent = 0; sent <= LIMIT; sent += chunk.length) await raw.send(`400\r\n${chunk}\r\n`);
    // The body has no end yet: the answer and the close can only come from the bound.
    expect(statusOf(await raw.head())).toBe(413);
    await raw.closed;
  });

  it('answers 413 to an oversized call in an open session, and the session carries on', async () => {
    const { call } = await sessionOn(small);
    const refused = await call({ _meta: { pad: 'x'.repeat(LIMIT) } });
    expect(refused.status).toBe(413);
    expect(await refused.json()).toMatchObject({ error: { code: -32000, message: /Payload Too Large/ } });
    const after = await call({});
    expect(after.status).toBe(200);
    await after.text();
  });

  it('answers 400 to a body that is not JSON', async () => {
    const response = await fetch(small.url, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${small.token}`,
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
      },
      body: '{"jsonrpc":',
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { code: -32700 } });
  });
});
