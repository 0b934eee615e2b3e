import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ApprovalRequest, ToolCall } from '@vmark/sdk';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ApprovalBroker } from '../approvals/approval-broker.js';
import { type ControlServer, startControlServer } from './control-server.js';
import { hostFilePath, writeHostFile } from './host-file.js';

/**
 * `vmark approvals` as a person runs it: the built CLI in its own process,
 * against a control server with a real broker in this one.
 */

const CLI = fileURLToPath(new URL('../dist/bundle/main.js', import.meta.url));
const OPEN: ApprovalRequest = {
  operation: 'open_workspace',
  subject: '/home/me/my "notes"',
  grantable: false,
};
const CALL: ToolCall = {
  tool: 'workspace',
  action: 'open',
  caller: { connectionId: 'conn-1', clientName: 'claude-code', clientVersion: '1.0.0', principal: null },
  signal: new AbortController().signal,
};

interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

let home: string;
let broker: ApprovalBroker;
let server: ControlServer | undefined;

// Async on purpose: a synchronous spawn would block the control server the CLI talks to.
function vmark(...args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [CLI, ...args],
      { env: { ...process.env, VMARK_HOME: home }, timeout: 20_000 },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

async function startServer(): Promise<ControlServer> {
  server = await startControlServer({ approvals: broker }, { home });
  return server;
}

beforeAll(() => {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` first`);
});

beforeEach(async () => {
  home = await fs.mkdtemp(path.join(os.tmpdir(), 'vmark-approvals-cli-'));
  broker = new ApprovalBroker();
});

afterEach(async () => {
  await server?.close();
  server = undefined;
  await fs.rm(home, { recursive: true, force: true });
});

describe('vmark approvals list', () => {
  it('says so when no host runs', async () => {
    expect(await vmark('approvals', 'list')).toEqual({
      code: 0,
      stdout: `no running vmark host (VMARK_HOME=${home})\n`,
      stderr: '',
    });
    expect(await vmark('approvals', 'list', '--json')).toMatchObject({ code: 0, stdout: '[]\n' });
  });

  it('prints the entries of a running host as JSON, without its token', async () => {
    const running = await startServer();
    const { requestId } = await broker.request(OPEN, CALL);
    const run = await vmark('approvals', 'list', '--json');
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual([
      {
        id: requestId,
        operation: 'open_workspace',
        subject: '/home/me/my "notes"',
        status: 'waiting',
        createdAt: expect.any(String),
        expiresAt: expect.any(String),
        clientName: 'claude-code',
        connectionId: 'conn-1',
        principal: null,
        hostPid: process.pid,
      },
    ]);
    const { token } = JSON.parse(await fs.readFile(running.hostFile, 'utf8')) as { token: string };
    expect(run.stdout + run.stderr).not.toContain(token);
  });

  it('prints a readable listing with the exact subject', async () => {
    await startServer();
    const { requestId } = await broker.request(OPEN, CALL);
    const run = await vmark('approvals', 'list');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`${requestId}  waiting  open_workspace  `);
    expect(run.stdout).toContain(
      '    from:     "claude-code" (connection conn-1, not an installed client)\n',
    );
    expect(run.stdout).toContain('    subject:  "/home/me/my \\"notes\\""\n');
    expect(run.stdout).toContain('vmark approvals allow ID');
    await broker.request({ ...OPEN, subject: '/elsewhere' }, CALL);
    broker.decide(requestId, 'deny');
    expect((await vmark('approvals', 'list')).stdout).toContain(`${requestId}  denied  open_workspace`);
  });

  it('names the installed client, what the client wrote and why it cannot be done', async () => {
    await startServer();
    await broker.request(
      {
        ...OPEN,
        requested: '/proc/self/cwd',
        warning: 'nothing exists at this path, so it cannot be opened.',
      },
      { ...CALL, caller: { ...CALL.caller, connectionId: 'conn-4', principal: 'work-laptop' } },
    );
    const { stdout } = await vmark('approvals', 'list');
    expect(stdout).toContain(
      '    from:     "claude-code" (connection conn-4, installed client "work-laptop")\n' +
        '    subject:  "/home/me/my \\"notes\\""\n' +
        '    asked as: "/proc/self/cwd"\n' +
        '    note:     nothing exists at this path, so it cannot be opened.\n',
    );
  });

  it('says so when a running host has nothing waiting', async () => {
    await startServer();
    expect((await vmark('approvals', 'list')).stdout).toBe('no approval requests (1 running vmark host)\n');
  });

  it('drops the file of a host that died', async () => {
    const dead = await new Promise<number>((resolve) => {
      const child = execFile(process.execPath, ['-e', ''], () => resolve(child.pid!));
    });
    await writeHostFile(home, { pid: dead, port: 1, token: 't', version: '0.0.0', startedAt: '' });
    expect((await vmark('approvals', 'list', '--json')).stdout).toBe('[]\n');
    await expect(fs.access(hostFilePath(home, dead))).rejects.toThrow(/ENOENT/);
  });
});

describe('vmark approvals allow | deny', () => {
  it('allows a waiting request, which the retried call then uses exactly once', async () => {
    await startServer();
    const { requestId } = await broker.request(OPEN, CALL);
    const run = await vmark('approvals', 'allow', requestId);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).toBe(
      `allowed ${requestId}: open_workspace on "/home/me/my \\"notes\\""\n` +
        'Asked by "claude-code" (connection conn-1, not an installed client): its next try of this operation ' +
        'on that connection goes ahead (once). Other connections asking the same are asked on their own.\n',
    );
    // Another connection of the same client is not let through by it.
    const other = { ...CALL, caller: { ...CALL.caller, connectionId: 'conn-2' } };
    expect(await broker.request(OPEN, other)).toMatchObject({ decision: 'pending' });
    expect(await broker.request(OPEN, CALL)).toEqual({ decision: 'allowed', requestId, by: 'terminal' });
    expect((await broker.request(OPEN, CALL)).decision).toBe('pending');
  });

  it('denies a waiting request, printing JSON on request', async () => {
    await startServer();
    const { requestId } = await broker.request(OPEN, CALL);
    const run = await vmark('approvals', 'deny', requestId, '--json');
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ id: requestId, status: 'denied', hostPid: process.pid });
    expect(await broker.request(OPEN, CALL)).toMatchObject({ decision: 'denied', by: 'terminal' });
  });

  it('fails with a clear message when no host holds the id', async () => {
    await startServer();
    expect(await vmark('approvals', 'allow', 'apr-AAAAAAAA')).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'vmark: no running vmark host holds approval request apr-AAAAAAAA: it was already used, ' +
        'has expired, or never existed (see vmark approvals list)\n',
    });
  });

  it('fails when no host runs, and refuses what is not an id', async () => {
    const none = await vmark('approvals', 'deny', 'apr-AAAAAAAA');
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('no running vmark host');
    const malformed = await vmark('approvals', 'allow', '../../etc');
    expect(malformed.code).toBe(2);
    expect(malformed.stderr).toContain('"../../etc" is not an approval id');
    expect((await vmark('approvals', 'allow')).code).toBe(2);
    expect((await vmark('approvals', 'maybe', 'apr-AAAAAAAA')).code).toBe(2);
  });
});
