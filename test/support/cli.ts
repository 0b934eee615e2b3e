import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
  type CallToolResult,
  type ElicitRequest,
  ElicitRequestSchema,
  type ElicitResult,
} from '@modelcontextprotocol/sdk/types.js';

/** The built CLI: end-to-end tests drive what a person or an AI client would run. */
export const REPO = fileURLToPath(new URL('../../', import.meta.url));
export const CLI = path.join(REPO, 'core/dist/bundle/main.js');

/** Temporary folders, removed by `cleanup`. Realpath'd, since tmp may be a symlink. */
export class TempDirs {
  #dirs: string[] = [];

  async make(prefix = 'vmark-e2e-'): Promise<string> {
    const dir = await mkdtemp(path.join(os.tmpdir(), prefix));
    this.#dirs.push(dir);
    return dir;
  }

  async cleanup(): Promise<void> {
    await Promise.all(this.#dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
  }
}

export interface CliResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `vmark <args>` to completion. */
export function runCli(args: readonly string[], env: Record<string, string>): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, ...env }, stdio: 'pipe' });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdin.end();
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/**
 * How the test client answers elicitation requests, if it declares the capability at all: always
 * the same action, or as a person filling in each form would (`{action, content}`).
 */
export type ElicitationPolicy =
  | 'accept'
  | 'decline'
  | 'cancel'
  | ((params: ElicitRequest['params']) => ElicitResult | Promise<ElicitResult>);

/** A real MCP SDK client connected to `vmark mcp <args>` over stdio. */
export async function connectStdio(
  args: readonly string[],
  home: string,
  options: {
    elicitation?: ElicitationPolicy;
    onElicit?: (message: string) => void;
    /** More environment, e.g. the client credential `VMARK_MCP_TOKEN`. */
    env?: Record<string, string>;
  } = {},
): Promise<{ client: Client; transport: StdioClientTransport }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'mcp', ...args],
    env: { ...(process.env as Record<string, string>), VMARK_HOME: home, ...options.env },
    stderr: 'pipe',
  });
  const { elicitation, onElicit } = options;
  const client = new Client(
    { name: 'vmark-e2e', version: '1.0.0' },
    elicitation ? { capabilities: { elicitation: {} } } : undefined,
  );
  if (elicitation) {
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      onElicit?.(request.params.message);
      return typeof elicitation === 'function' ? elicitation(request.params) : { action: elicitation };
    });
  }
  await client.connect(transport);
  return { client, transport };
}

/** A tool call's result with its JSON payload decoded. */
export async function call(
  client: Client,
  name: string,
  args: Record<string, unknown>,
): Promise<{ isError: boolean; text: string; data: Record<string, unknown> }> {
  // A call that never answers ends in the test's timeout, which names no step: this names it.
  const slow = setTimeout(
    () => console.error(`e2e: ${name} ${String(args.action)} has not answered in 20 s`),
    20_000,
  );
  const result = (await client
    .callTool({ name, arguments: args })
    .finally(() => clearTimeout(slow))) as CallToolResult;
  const text = result.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
  let data = result.structuredContent;
  if (data === undefined) {
    try {
      data = JSON.parse(text) as Record<string, unknown>;
    } catch {
      data = {};
    }
  }
  return { isError: result.isError === true, text, data };
}

/** Polls `check` until it holds or `ms` pass; for waiting on another process, never for timing. */
export async function eventually(check: () => boolean | Promise<boolean>, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 25));
  }
}
