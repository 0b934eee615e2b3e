import { execFileSync } from 'node:child_process';
import { mkdir, realpath, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, connectStdio, type ElicitationPolicy, runCli, TempDirs } from './support/cli.js';
import { connectMcp, type Served, startServe } from './support/ui.js';

/*
 * Attacks on the approval broker through real MCP clients of one `vmark serve`
 * (issue 9, items 7 and 8; ADR 22): one client must not spend, or be refused by,
 * another's approval, and open_workspace must tell a client nothing about the
 * disk before a person has answered.
 */

const temp = new TempDirs();
let home: string;
let served: Served;
/** Every client a test opened, closed after it. */
const clients: Client[] = [];

beforeAll(async () => {
  const vault = await realpath(await temp.make('vmark-attack-vault-'));
  home = await temp.make('vmark-attack-home-');
  served = await startServe(['--workspace', vault], home);
});
afterAll(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  await served?.stop();
  await temp.cleanup();
});

/** An AI client's `vmark mcp` (stdio) that attaches to the running `vmark serve`. */
async function attached(
  options: {
    env?: Record<string, string>;
    elicitation?: ElicitationPolicy;
    onElicit?: (m: string) => void;
  } = {},
): Promise<Client> {
  const { client } = await connectStdio([], home, options);
  clients.push(client);
  return client;
}

/** A Streamable HTTP session on the host's own /mcp. */
async function session(): Promise<Client> {
  const client = await connectMcp(served);
  clients.push(client);
  return client;
}

const openWorkspace = (client: Client, folderPath: string) =>
  call(client, 'workspace', { action: 'open_workspace', folderPath });

interface Listed {
  readonly id: string;
  readonly subject: string;
  readonly status: string;
  readonly clientName: string;
  readonly connectionId: string;
  readonly principal: string | null;
  readonly requested?: string;
  readonly warning?: string;
}

async function listed(): Promise<Listed[]> {
  return JSON.parse((await runCli(['approvals', 'list', '--json'], { VMARK_HOME: home })).stdout) as Listed[];
}

async function decide(verb: 'allow' | 'deny', id: unknown): Promise<void> {
  expect((await runCli(['approvals', verb, String(id)], { VMARK_HOME: home })).code).toBe(0);
}

const folder = async () => realpath(await temp.make('vmark-attack-folder-'));

describe.each([
  ['two attached clients (vmark mcp on a running vmark serve)', () => attached()],
  ['two HTTP sessions on /mcp', () => session()],
])('one client cannot spend or be refused by another’s approval: %s', (_how, connect) => {
  it("B's identical call after a person allowed A's is refused with its own request; A's retry opens it", async () => {
    const [a, b] = [await connect(), await connect()];
    const target = await folder();
    const asked = await openWorkspace(a, target);
    expect(asked.data).toEqual({ needsApproval: true, folderPath: target, requestId: expect.any(String) });
    await decide('allow', asked.data.requestId);

    const spent = await openWorkspace(b, target);
    expect(spent.isError).toBe(true);
    expect(spent.data).toEqual({ needsApproval: true, folderPath: target, requestId: expect.any(String) });
    expect(spent.data.requestId).not.toBe(asked.data.requestId);

    const opened = await openWorkspace(a, target);
    expect(opened.data).toEqual({ folderPath: target, workspaceInstanceId: expect.stringMatching(/^wsi-/) });
    // B still waits for an answer of its own.
    expect((await openWorkspace(b, target)).data).toMatchObject({ requestId: spent.data.requestId });
    await decide('deny', spent.data.requestId);
  });

  it("a deny of A's request does not refuse B, who is asked on its own", async () => {
    const [a, b] = [await connect(), await connect()];
    const target = await folder();
    const fromA = await openWorkspace(a, target);
    await decide('deny', fromA.data.requestId);
    const fromB = await openWorkspace(b, target);
    expect(fromB.data).toEqual({ needsApproval: true, folderPath: target, requestId: expect.any(String) });
    expect(fromB.data.requestId).not.toBe(fromA.data.requestId);
    expect((await openWorkspace(a, target)).data).toMatchObject({
      denied: true,
      requestId: fromA.data.requestId,
    });
    await decide('allow', fromB.data.requestId);
    expect((await openWorkspace(b, target)).data).toMatchObject({ folderPath: target });
    expect((await openWorkspace(a, target)).data).toMatchObject({ denied: true });
  });

  it('a client that reconnects is asked anew; its old request can be answered but nobody spends it', async () => {
    const first = await connect();
    const target = await folder();
    const old = await openWorkspace(first, target);
    await first.close();
    const again = await connect();
    const renewed = await openWorkspace(again, target);
    expect(renewed.data).toEqual({ needsApproval: true, folderPath: target, requestId: expect.any(String) });
    expect(renewed.data.requestId).not.toBe(old.data.requestId);
    await decide('allow', old.data.requestId);
    expect((await openWorkspace(again, target)).data).toEqual(renewed.data);
    const entries = await listed();
    expect(entries.find((entry) => entry.id === old.data.requestId)).toMatchObject({ status: 'allowed' });
    await decide('deny', renewed.data.requestId);
  });
});

describe('vmark approvals list names who asks', () => {
  it('by the name the client gives itself, its connection and its installed principal', async () => {
    const installed = await runCli(['mcp', 'install', '--client', 'attack-client'], { VMARK_HOME: home });
    const token = (JSON.parse(installed.stdout) as { mcpServers: { vmark: { env: Record<string, string> } } })
      .mcpServers.vmark.env.VMARK_MCP_TOKEN!;
    const [named, anonymous] = [await attached({ env: { VMARK_MCP_TOKEN: token } }), await attached()];
    const target = await folder();
    const fromNamed = await openWorkspace(named, target);
    const fromAnonymous = await openWorkspace(anonymous, target);
    const entries = await listed();
    const one = entries.find((entry) => entry.id === fromNamed.data.requestId)!;
    const other = entries.find((entry) => entry.id === fromAnonymous.data.requestId)!;
    expect(one).toMatchObject({ clientName: 'vmark-e2e', principal: 'attack-client', subject: target });
    expect(other).toMatchObject({ clientName: 'vmark-e2e', principal: null, subject: target });
    expect(one.connectionId).toMatch(/^conn-\d+$/);
    expect(other.connectionId).not.toBe(one.connectionId);
    const text = (await runCli(['approvals', 'list'], { VMARK_HOME: home })).stdout;
    expect(text).toContain(
      `from:     "vmark-e2e" (connection ${one.connectionId}, installed client "attack-client")`,
    );
    expect(text).toContain(
      `from:     "vmark-e2e" (connection ${other.connectionId}, not an installed client)`,
    );
    await decide('deny', one.id);
    await decide('deny', other.id);
    await runCli(['mcp', 'uninstall', '--client', 'attack-client'], { VMARK_HOME: home });
  });
});

describe('probing with open_workspace tells the client nothing before a person answers', () => {
  let outside: string;
  let secret: string;
  /** What each probe is, by name: the path the client sends. */
  let probes: Record<string, string>;

  beforeAll(async () => {
    outside = await folder();
    secret = path.join(outside, 'home', '.ssh');
    await mkdir(secret, { recursive: true });
    await writeFile(path.join(secret, 'id_ed25519'), 'PRIVATE KEY');
    await writeFile(path.join(outside, 'notes.txt'), 'a file');
    await symlink(secret, path.join(outside, 'innocent'));
    execFileSync('mkfifo', [path.join(outside, 'pipe')]);
    probes = {
      folder: await folder(),
      file: path.join(outside, 'notes.txt'),
      fifo: path.join(outside, 'pipe'),
      missing: path.join(outside, 'nope', 'deeper'),
      'link to a folder outside': path.join(outside, 'innocent'),
      '/proc/self/cwd': '/proc/self/cwd',
    };
  });

  /** The answer with what the client sent and its request id taken out: all must read the same. */
  const shape = (answer: { text: string; data: Record<string, unknown> }, sent: string) =>
    JSON.stringify(answer).replaceAll(String(answer.data.requestId), '<id>').replaceAll(sent, '<path>');

  it('answers a folder, a file, a FIFO, a missing path, a link and /proc/self/cwd alike, echoing only the path sent', async () => {
    const client = await session();
    const answers = new Map<string, string>();
    for (const [name, sent] of Object.entries(probes)) {
      const answer = await openWorkspace(client, sent);
      expect(answer.isError, name).toBe(true);
      expect(answer.data, name).toEqual({
        needsApproval: true,
        folderPath: sent,
        requestId: expect.any(String),
      });
      answers.set(name, shape(answer, sent));
      // What it resolves to stays with the person: the link's target, the host's cwd.
      for (const hidden of [secret, await realpath(process.cwd())]) {
        expect(JSON.stringify(answer), name).not.toContain(hidden);
      }
    }
    expect(new Set(answers.values()).size).toBe(1);

    // The person is shown what would open, and plainly when nothing can.
    const entries = await listed();
    const entryOf = (sent: string) =>
      entries.find((entry) => entry.requested === sent || entry.subject === sent)!;
    expect(entryOf(probes.folder!)).not.toHaveProperty('warning');
    expect(entryOf(probes.file!).warning).toMatch(/^this is not a folder/);
    expect(entryOf(probes.fifo!).warning).toMatch(/^this is not a folder/);
    expect(entryOf(probes.missing!).warning).toMatch(/^nothing exists at this path/);
    expect(entryOf(probes['link to a folder outside']!)).toMatchObject({
      subject: secret,
      requested: probes['link to a folder outside'],
    });
    expect(entryOf('/proc/self/cwd')).toMatchObject({ subject: await realpath(process.cwd()) });
    expect(entryOf('/proc/self/cwd')).not.toHaveProperty('warning');

    // Once allowed, a non-folder is a clear INVALID_PATH, and the link opens what the person saw.
    for (const [name, reason] of [
      ['file', 'is not a folder'],
      ['missing', 'does not exist'],
    ] as const) {
      await decide('allow', entryOf(probes[name]!).id);
      expect((await openWorkspace(client, probes[name]!)).data).toEqual({
        error: 'INVALID_PATH',
        message: `Path ${JSON.stringify(probes[name])} ${reason}: it cannot be opened as a workspace`,
      });
    }
    await decide('allow', entryOf(probes['link to a folder outside']!).id);
    expect((await openWorkspace(client, probes['link to a folder outside']!)).data).toMatchObject({
      folderPath: secret,
    });
    for (const name of ['folder', 'fifo', '/proc/self/cwd']) await decide('deny', entryOf(probes[name]!).id);
  });

  it('asks the person at the client about each one, saying what it is, and answers a decline alike', async () => {
    const messages: string[] = [];
    const client = await attached({ elicitation: 'decline', onElicit: (m) => messages.push(m) });
    const answers = new Set<string>();
    for (const sent of Object.values(probes)) {
      const answer = await openWorkspace(client, sent);
      expect(answer.data).toEqual({
        needsApproval: true,
        folderPath: sent,
        requestId: expect.any(String),
        denied: true,
      });
      answers.add(shape(answer, sent));
    }
    expect(answers.size).toBe(1);
    expect(messages).toHaveLength(Object.keys(probes).length);
    expect(messages[1]).toContain('Note: this is not a folder');
    expect(messages[3]).toContain('Note: nothing exists at this path');
    expect(messages[4]).toContain(
      `on ${JSON.stringify(secret)} (asked as ${JSON.stringify(probes['link to a folder outside'])})`,
    );
    // Declined answers are not kept: nothing waits for the terminal.
    expect((await listed()).filter((entry) => entry.status === 'waiting')).toEqual([]);
  });
});

describe('the bound on waiting requests still holds', () => {
  it('one connection fills at most its share, all of them at most 16, probes counted like any request', async () => {
    const [a, b, c] = [await session(), await attached(), await session()];
    const waitingBefore = (await listed()).filter((entry) => entry.status === 'waiting').length;
    expect(waitingBefore).toBe(0);
    const fromA = [];
    for (let i = 0; i < 8; i++) fromA.push(await openWorkspace(a, await folder()));
    expect(fromA.every((answer) => answer.data.needsApproval === true)).toBe(true);
    expect((await openWorkspace(a, await folder())).data).toMatchObject({ error: 'RESOURCE_EXHAUSTED' });
    // A's retries still find their requests, and another client is still heard.
    expect((await openWorkspace(a, String(fromA[0]!.data.folderPath))).data).toEqual(fromA[0]!.data);
    for (let i = 0; i < 8; i++) {
      const probe = i % 2 === 0 ? await folder() : `/nonexistent-${i}/x`;
      expect((await openWorkspace(b, probe)).data).toMatchObject({ needsApproval: true });
    }
    const full = await openWorkspace(c, await folder());
    expect(full.data).toMatchObject({ error: 'RESOURCE_EXHAUSTED' });
    expect(String(full.data.message)).toMatch(/at most 16 may wait/);
    expect((await listed()).filter((entry) => entry.status === 'waiting')).toHaveLength(16);
  });
});
