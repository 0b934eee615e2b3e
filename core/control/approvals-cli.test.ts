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
  progress: () => undefined,
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

  it('allows until navigation only a request that offered it; another is left waiting', async () => {
    await startServer();
    const attach: ApprovalRequest = {
      operation: 'attach',
      subject: 'let the AI read and act in your tab tab-1 on https://a.example (page 1)',
      origin: 'https://a.example',
      grantable: false,
      untilNavigation: true,
    };
    const { requestId: openId } = await broker.request(OPEN, CALL);
    const refused = await vmark('approvals', 'allow-until-navigation', openId);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/did not offer "allow until navigation"/);
    expect(broker.list()).toMatchObject([{ id: openId, status: 'waiting' }]);
    const { requestId } = await broker.request(attach, CALL);
    expect((await vmark('approvals', 'list')).stdout).toContain(
      `may also: vmark approvals allow-until-navigation ${requestId}`,
    );
    const run = await vmark('approvals', 'allow-until-navigation', requestId);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).toContain('holds until the page navigates');
    expect(await broker.request(attach, CALL)).toEqual({
      decision: 'allowed',
      requestId,
      by: 'terminal',
      lasts: 'until-navigation',
    });
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

describe('vmark approvals grants | revoke', () => {
  const CLICK: ApprovalRequest = {
    operation: 'click',
    subject: 'click button "Pay" — on https://shop.example/cart (page 3)',
    origin: 'https://shop.example',
    grantable: true,
  };

  /** Two grants, as a person's "Allow on this site" in the editor gives them. */
  async function granted(): Promise<void> {
    const registration = broker.registerApprover({ kind: 'ui', ask: () => Promise.resolve('allow-site') });
    await broker.request(CLICK, CALL);
    await broker.request({ ...CLICK, operation: 'type', origin: 'https://Other.example:443' }, CALL);
    registration.dispose();
  }

  it('lists the grants value-free, with who holds them, and as JSON', async () => {
    await startServer();
    expect(await vmark('approvals', 'grants')).toEqual({
      code: 0,
      stdout: 'no standing grants\n',
      stderr: '',
    });
    await granted();
    const [click, type] = broker.grants();
    const run = await vmark('approvals', 'grants');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`${click!.id}  click  https://shop.example  given `);
    expect(run.stdout).toContain(`${type!.id}  type  https://other.example  given `);
    expect(run.stdout).toContain('held by: "claude-code" (connection conn-1, not an installed client)');
    expect(run.stdout).not.toContain('Pay');
    const json = JSON.parse((await vmark('approvals', 'grants', '--json')).stdout) as unknown[];
    expect(json).toEqual([
      { ...click, hostPid: process.pid },
      { ...type, hostPid: process.pid },
    ]);
  });

  it('revokes one by id; the next call it covered asks again', async () => {
    await startServer();
    await granted();
    const [click] = broker.grants();
    const run = await vmark('approvals', 'revoke', click!.id);
    expect(run).toEqual({
      code: 0,
      stdout: `revoked ${click!.id}: click on https://shop.example, held by "claude-code" (connection conn-1, not an installed client)\n`,
      stderr: '',
    });
    expect(broker.grants().map((grant) => grant.operation)).toEqual(['type']);
    expect(await broker.request(CLICK, CALL)).toMatchObject({ decision: 'pending' });
    expect(await vmark('approvals', 'revoke', click!.id)).toEqual({
      code: 1,
      stdout: '',
      stderr:
        `vmark: no running vmark host holds standing grant ${click!.id}: it was already revoked, or never ` +
        'existed (see vmark approvals grants)\n',
    });
  });

  it('revokes every grant on an origin, written in any spelling, then all', async () => {
    await startServer();
    await granted();
    const byOrigin = await vmark('approvals', 'revoke', '--origin', 'HTTPS://OTHER.example', '--json');
    expect(byOrigin.code).toBe(0);
    expect(JSON.parse(byOrigin.stdout)).toMatchObject([
      { operation: 'type', origin: 'https://other.example' },
    ]);
    expect(await vmark('approvals', 'revoke', '--origin', 'https://other.example')).toEqual({
      code: 1,
      stdout: '',
      stderr: 'vmark: no standing grant on https://other.example (see vmark approvals grants)\n',
    });
    const all = await vmark('approvals', 'revoke', '--all');
    expect(all.code).toBe(0);
    expect(all.stdout).toMatch(/^revoked grt-\w{8}: click on https:\/\/shop\.example/);
    expect(broker.grants()).toEqual([]);
    expect(await vmark('approvals', 'revoke', '--all')).toMatchObject({
      code: 0,
      stdout: 'no standing grants to revoke\n',
    });
  });

  it('refuses a bad grant id, a bad origin, or both forms at once, with the usage', async () => {
    await startServer();
    await granted();
    const badId = await vmark('approvals', 'revoke', 'apr-AAAAAAAA');
    expect(badId.code).toBe(2);
    expect(badId.stderr).toContain('"apr-AAAAAAAA" is not a grant id; ids look like grt-Ab3dE6gH');
    expect(badId.stderr).toContain('vmark approvals revoke --origin ORIGIN');
    const badOrigin = await vmark('approvals', 'revoke', '--origin', 'https://shop.example/cart');
    expect(badOrigin.code).toBe(2);
    expect(badOrigin.stderr).toContain('"https://shop.example/cart" is not an origin');
    expect((await vmark('approvals', 'revoke')).stderr).toContain('missing GRANT-ID');
    expect((await vmark('approvals', 'revoke', 'grt-AAAAAAAA', '--all')).code).toBe(2);
    // Nothing was revoked by any of them.
    expect(broker.grants()).toHaveLength(2);
  });

  it('says when no host runs', async () => {
    expect(await vmark('approvals', 'grants')).toMatchObject({
      code: 0,
      stdout: expect.stringContaining('no running vmark host'),
    });
    expect(await vmark('approvals', 'revoke', '--all')).toMatchObject({ code: 1 });
  });
});
