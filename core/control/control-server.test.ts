import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { ToolCall } from '@vmark/sdk';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApprovalBroker } from '../approvals/approval-broker.js';
import { controlRequest } from './control-client.js';
import { type ControlServer, startControlServer } from './control-server.js';
import { listRunningHosts, type RunningHost } from './host-file.js';

const CALL: ToolCall = {
  tool: 'workspace',
  action: 'open',
  caller: { connectionId: 'conn-1', clientName: 'test-client', clientVersion: '1.0.0', principal: null },
  signal: new AbortController().signal,
  progress: () => undefined,
};

let home: string;
let broker: ApprovalBroker;
let server: ControlServer;
let host: RunningHost;

beforeEach(async () => {
  home = await fs.mkdtemp(path.join(os.tmpdir(), 'vmark-control-'));
  broker = new ApprovalBroker();
  server = await startControlServer({ approvals: broker }, { home, version: '9.9.9' });
  host = JSON.parse(await fs.readFile(server.hostFile, 'utf8')) as RunningHost;
});

afterEach(async () => {
  await server.close();
  await fs.rm(home, { recursive: true, force: true });
});

/** A request with exactly the headers given, to try what the client helper never sends. */
function raw(
  method: string,
  pathname: string,
  headers: Record<string, string>,
): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      { host: '127.0.0.1', port: server.port, method, path: pathname, headers, agent: false },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown,
          }),
        );
      },
    );
    request.on('error', reject);
    request.end();
  });
}

describe('the host file', () => {
  it('announces pid, port, token, version and start time, readable by its owner only', async () => {
    expect(host).toEqual({
      pid: process.pid,
      port: server.port,
      token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      version: '9.9.9',
      startedAt: expect.any(String),
    });
    expect(server.hostFile).toBe(path.join(home, 'hosts', `${process.pid}.json`));
    expect((await fs.stat(server.hostFile)).mode & 0o777).toBe(0o600);
    expect(await listRunningHosts(home)).toEqual([host]);
  });

  it('is removed on close, and the port stops answering', async () => {
    await server.close();
    await server.close(); // Twice is harmless.
    await expect(fs.access(server.hostFile)).rejects.toThrow(/ENOENT/);
    expect(await listRunningHosts(home)).toEqual([]);
    await expect(controlRequest(host, 'GET', '/approvals', 2000)).rejects.toThrow(/could not be reached/);
  });
});

describe('authentication', () => {
  it.each([
    ['no token', {}],
    ['a wrong token', { authorization: 'Bearer not-the-token' }],
    ['another scheme', { authorization: 'Basic dm1hcms6dm1hcms=' }],
    ['an empty bearer', { authorization: 'Bearer ' }],
  ])('refuses %s with 401', async (_name, headers: Record<string, string>) => {
    const reply = await raw('GET', '/approvals', headers);
    expect(reply).toEqual({ status: 401, body: { error: 'UNAUTHORIZED', message: expect.any(String) } });
  });

  it('refuses a wrong token before revealing which routes exist', async () => {
    expect((await raw('GET', '/nowhere', { authorization: 'Bearer x' })).status).toBe(401);
  });

  it('refuses a foreign Host header even with the token', async () => {
    const reply = await raw('GET', '/approvals', {
      authorization: `Bearer ${host.token}`,
      host: `evil.example:${server.port}`,
    });
    expect(reply.status).toBe(403);
  });

  it('never echoes the token', async () => {
    const reply = await raw('GET', '/approvals', { authorization: `Bearer ${host.token}x` });
    expect(JSON.stringify(reply.body)).not.toContain(host.token);
  });
});

describe('routes', () => {
  it('lists approvals', async () => {
    const { requestId } = await broker.request(
      { operation: 'open_workspace', subject: '/home/me/notes', grantable: false },
      CALL,
    );
    const reply = await controlRequest(host, 'GET', '/approvals');
    expect(reply).toEqual({
      status: 200,
      body: {
        approvals: [expect.objectContaining({ id: requestId, status: 'waiting', clientName: 'test-client' })],
      },
    });
  });

  it('allows and denies by id, and the broker sees it', async () => {
    const request = { operation: 'open_workspace', subject: '/home/me/notes', grantable: false };
    const { requestId } = await broker.request(request, CALL);

    const denied = await controlRequest(host, 'POST', `/approvals/${requestId}/deny`);
    expect(denied).toEqual({
      status: 200,
      body: { approval: expect.objectContaining({ id: requestId, status: 'denied', decidedBy: 'terminal' }) },
    });
    expect(await broker.request(request, CALL)).toMatchObject({ decision: 'denied' });

    const allowed = await controlRequest(host, 'POST', `/approvals/${requestId}/allow`);
    expect(allowed.body).toEqual({ approval: expect.objectContaining({ status: 'allowed' }) });
    expect(await broker.request(request, CALL)).toMatchObject({ decision: 'allowed', by: 'terminal' });
  });

  it('answers 404 for an unknown id or route and 405 for a wrong method', async () => {
    expect(await controlRequest(host, 'POST', '/approvals/apr-AAAAAAAA/allow')).toEqual({
      status: 404,
      body: { error: 'NOT_FOUND', message: expect.stringContaining('apr-AAAAAAAA') },
    });
    expect((await controlRequest(host, 'GET', '/shutdown')).status).toBe(404);
    expect((await controlRequest(host, 'POST', '/approvals/apr-AAAAAAAA/maybe')).status).toBe(404);
    expect(await controlRequest(host, 'POST', '/approvals')).toEqual({
      status: 405,
      body: { error: 'METHOD_NOT_ALLOWED', message: '/approvals accepts GET' },
    });
    expect((await controlRequest(host, 'GET', '/approvals/apr-AAAAAAAA/allow')).status).toBe(405);
  });

  it('lists and revokes standing grants; a bad origin is a 400, an unknown grant a 404', async () => {
    const request = { operation: 'click', subject: 'click', origin: 'https://a.example', grantable: true };
    const registration = broker.registerApprover({ kind: 'ui', ask: () => Promise.resolve('allow-site') });
    await broker.request(request, CALL);
    registration.dispose();
    const [grant] = broker.grants();
    expect(await controlRequest(host, 'GET', '/grants')).toEqual({ status: 200, body: { grants: [grant] } });
    expect(await controlRequest(host, 'POST', '/grants/origin/https%3A%2F%2Fa.example%2Fx/revoke')).toEqual({
      status: 400,
      body: { error: 'INVALID_ORIGIN', message: expect.stringContaining('is not an origin') },
    });
    expect((await controlRequest(host, 'POST', '/grants/origin/%E0%A4/revoke')).status).toBe(400);
    expect((await controlRequest(host, 'POST', '/grants/grt-AAAAAAAA/revoke')).status).toBe(404);
    expect((await controlRequest(host, 'GET', '/grants/revoke-all')).status).toBe(405);
    expect(await controlRequest(host, 'POST', '/grants/origin/HTTPS%3A%2F%2FA.EXAMPLE/revoke')).toEqual({
      status: 200,
      body: { revoked: [grant] },
    });
    expect(broker.grants()).toEqual([]);
  });

  it('ignores a query string', async () => {
    expect((await controlRequest(host, 'GET', '/approvals?verbose=1')).status).toBe(200);
  });

  it('turns a failing handler into a 500 instead of crashing the host', async () => {
    const failing = await startControlServer(
      {
        approvals: {
          list: () => {
            throw new Error('broken');
          },
          decide: () => {
            throw new Error('broken');
          },
          grants: () => [],
          revoke: () => [],
        },
      },
      { home: await fs.mkdtemp(path.join(os.tmpdir(), 'vmark-control-failing-')) },
    );
    try {
      const token = (JSON.parse(await fs.readFile(failing.hostFile, 'utf8')) as RunningHost).token;
      const reply = await controlRequest(
        { pid: process.pid, port: failing.port, token },
        'GET',
        '/approvals',
      );
      expect(reply).toEqual({ status: 500, body: { error: 'INTERNAL', message: 'broken' } });
    } finally {
      await failing.close();
    }
  });
});
