import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { PassThrough } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  ElicitRequestSchema,
  type JSONRPCMessage,
  JSONRPCMessageSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { type Approvals, ApprovalsToken, defineAction, defineTool, requiredString } from '@vmark/sdk';
import { toolPlugin } from '@vmark/sdk/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHost, type Host } from '../composition/host.js';
import { type HttpEndpoint, serveHttp } from './http-endpoint.js';
import { type ProxyEnd, proxyStdio } from './stdio-proxy.js';

/** The client's end of a stdio pipe: JSON-RPC, one message a line, as `vmark mcp`'s parent writes it. */
class LineTransport implements Transport {
  onmessage?: (message: JSONRPCMessage) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;

  constructor(
    private readonly toProxy: PassThrough,
    private readonly fromProxy: PassThrough,
  ) {}

  start(): Promise<void> {
    createInterface({ input: this.fromProxy }).on('line', (line) => {
      if (line.trim() !== '') this.onmessage?.(JSONRPCMessageSchema.parse(JSON.parse(line)));
    });
    return Promise.resolve();
  }

  send(message: JSONRPCMessage): Promise<void> {
    this.toProxy.write(JSON.stringify(message) + '\n');
    return Promise.resolve();
  }

  close(): Promise<void> {
    this.toProxy.end();
    this.onclose?.();
    return Promise.resolve();
  }
}

const echo = defineTool({
  name: 'echo',
  title: 'Echo',
  description: 'Says back what it is given.',
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  actions: {
    say: defineAction({ args: { text: requiredString('text') }, run: ({ text }) => ({ said: text }) }),
  },
});

let approvals: Approvals | undefined;
/** Asks the person through the broker: with no UI, the calling client is asked through elicitation. */
const ask = defineTool({
  name: 'ask',
  title: 'Ask',
  description: 'Asks the person.',
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  actions: {
    run: defineAction({
      args: {},
      run: async (_args, call) => {
        if (!approvals) throw new Error('the asking plugin is not active');
        return approvals.request({ operation: 'open_workspace', subject: '/x', grantable: false }, call);
      },
    }),
  },
});

let home: string;
let host: Host;
let endpoint: HttpEndpoint;
let alive: boolean;
let logged: string[];

beforeEach(async () => {
  home = await mkdtemp(path.join(os.tmpdir(), 'vmark-proxy-'));
  alive = true;
  logged = [];
  host = await createHost({
    home,
    userPlugins: false,
    extraPlugins: [
      toCandidate(toolPlugin('echo-plugin', [echo])),
      toCandidate(toolPlugin('asking-plugin', [ask], (context) => (approvals = context.get(ApprovalsToken)))),
    ],
  });
  endpoint = await serveHttp(host, { port: 0 });
});

afterEach(async () => {
  await endpoint.close();
  await host.dispose();
  await rm(home, { recursive: true, force: true });
});

function toCandidate(plugin: ReturnType<typeof toolPlugin>) {
  return {
    source: 'inline' as const,
    dir: null,
    raw: plugin.manifest,
    load: () => Promise.resolve(plugin.plugin),
  };
}

/** A proxy between an SDK client (over in-process pipes) and the endpoint. */
async function connect(options: { bearer?: string; elicit?: (message: string) => void } = {}) {
  const toProxy = new PassThrough();
  const fromProxy = new PassThrough();
  const ended: Promise<ProxyEnd> = proxyStdio({
    url: endpoint.url,
    bearer: options.bearer ?? endpoint.token,
    hostAlive: () => alive,
    input: toProxy,
    output: fromProxy,
    log: (line) => logged.push(line),
  });
  const client = new Client(
    { name: 'proxied', version: '1.0.0' },
    options.elicit ? { capabilities: { elicitation: {} } } : undefined,
  );
  if (options.elicit) {
    const elicit = options.elicit;
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      elicit(request.params.message);
      return { action: 'accept' };
    });
  }
  await client.connect(new LineTransport(toProxy, fromProxy));
  return { client, ended };
}

describe('proxyStdio', () => {
  it('relays requests and answers both ways', async () => {
    const { client, ended } = await connect();
    expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual(['ask', 'echo']);
    const result = await client.callTool({ name: 'echo', arguments: { action: 'say', text: 'hé' } });
    expect(result.content).toEqual([{ type: 'text', text: JSON.stringify({ said: 'hé' }, null, 2) }]);
    await client.close();
    expect(await ended).toBe('client-closed');
  });

  it('relays the host’s notifications (tools/list_changed)', async () => {
    const { client, ended } = await connect();
    let notified = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      notified++;
    });
    await client.listTools();
    await host.plugins.setEnabled('echo-plugin', false);
    await expect.poll(() => notified, { timeout: 5_000 }).toBeGreaterThan(0);
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['ask']);
    await client.close();
    await ended;
  });

  it('relays the host’s own requests (elicitation) and the client’s answers', async () => {
    const asked: string[] = [];
    const { client, ended } = await connect({ elicit: (message) => asked.push(message) });
    const result = await client.callTool({ name: 'ask', arguments: { action: 'run' } });
    expect(asked).toHaveLength(1);
    expect(asked[0]).toContain('/x');
    expect(result.content).toMatchObject([{ type: 'text', text: expect.stringContaining('allowed') }]);
    await client.close();
    await ended;
  });

  it('ends with host-gone when the host process is no longer alive', async () => {
    const { client, ended } = await connect();
    await client.listTools();
    alive = false;
    expect(await ended).toBe('host-gone');
    await client.close();
  });

  it('answers the client with an error when the host refuses the bearer, and never logs the token', async () => {
    const bearer = 'not-the-token-0123456789';
    const toProxy = new PassThrough();
    const fromProxy = new PassThrough();
    const ended = proxyStdio({
      url: endpoint.url,
      bearer,
      hostAlive: () => alive,
      input: toProxy,
      output: fromProxy,
      log: (line) => logged.push(line),
    });
    const client = new Client({ name: 'proxied', version: '1.0.0' });
    await expect(client.connect(new LineTransport(toProxy, fromProxy))).rejects.toThrow(/401|Unauthorized/);
    await client.close();
    expect(await ended).toBe('client-closed');
    expect(logged.join('\n')).toMatch(/Unauthorized/);
    expect(logged.join('\n')).not.toContain(bearer);
    expect(logged.join('\n')).not.toContain(endpoint.token);
  });
});
