import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { CLI, type ElicitationPolicy } from './cli.js';

/** A running `vmark mcp --http`: Streamable HTTP on loopback, behind its bearer token. */
export interface McpHttp {
  readonly url: string;
  readonly token: string;
  readonly child: ChildProcessWithoutNullStreams;
  /** A real MCP SDK client on it, answering elicitation as told (or not declaring it). */
  connect(options?: { elicitation?: ElicitationPolicy }): Promise<Client>;
  stop(): Promise<void>;
}

export async function startMcpHttp(
  args: readonly string[],
  home: string,
  env: Record<string, string> = {},
): Promise<McpHttp> {
  const child = spawn(process.execPath, [CLI, 'mcp', '--http', ...args], {
    env: { ...process.env, VMARK_HOME: home, ...env },
  });
  const firstLine = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`vmark mcp --http exited (${code}) before it listened`)));
  });
  const { url, token } = JSON.parse(firstLine) as { url: string; token: string };
  return {
    url,
    token,
    child,
    async connect(options = {}) {
      const { elicitation } = options;
      const client = new Client(
        { name: 'vmark-e2e-http', version: '1.0.0' },
        elicitation ? { capabilities: { elicitation: {} } } : undefined,
      );
      if (elicitation) {
        client.setRequestHandler(ElicitRequestSchema, (request) =>
          typeof elicitation === 'function' ? elicitation(request.params) : { action: elicitation },
        );
      }
      await client.connect(
        new StreamableHTTPClientTransport(new URL(url), {
          requestInit: { headers: { Authorization: `Bearer ${token}` } },
        }),
      );
      return client;
    },
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
