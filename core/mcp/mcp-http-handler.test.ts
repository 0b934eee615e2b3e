import { mkdtemp, rm } from 'node:fs/promises';
import { request } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHost, type Host } from '../host.js';
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
