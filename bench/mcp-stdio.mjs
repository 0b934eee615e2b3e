/**
 * One MCP server over stdio, driven by the real SDK `Client` and
 * `StdioClientTransport` — the way an AI client talks to it.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const STDERR_TAIL_BYTES = 8 * 1024;

/** Every server started and not yet closed, so an interrupted run can still stop them. */
const live = new Set();

/**
 * Spawns `command args…` and connects (the MCP initialize handshake).
 * @returns {Promise<McpServerHandle>}
 */
export async function connectStdio({ name, command, args, env, cwd, capabilities = {} }) {
  const transport = new StdioClientTransport({
    command,
    args,
    cwd,
    // Replaces the SDK's minimal default environment, so both servers see the same one.
    env: { ...process.env, ...env },
    stderr: 'pipe',
  });
  let stderrTail = '';
  // Drained at all times: a full pipe would block the child.
  transport.stderr?.on('data', (chunk) => {
    stderrTail = (stderrTail + chunk.toString('utf8')).slice(-STDERR_TAIL_BYTES);
  });
  // `capabilities`: what the client declares, e.g. `{elicitation: {}}` to be asked for approvals.
  const client = new Client({ name: 'vmark-bench', version: '0.1.0' }, { capabilities });
  const handle = {
    name,
    client,
    transport,
    get pid() {
      return transport.pid;
    },
    stderr: () => stderrTail,
    async close() {
      if (!live.delete(handle)) return;
      await client.close().catch(() => undefined);
    },
  };
  live.add(handle);
  try {
    await client.connect(transport);
  } catch (error) {
    await handle.close();
    throw withStderr(error, name, stderrTail);
  }
  return handle;
}

/** Stops every server still running (used on failure and on SIGINT). */
export async function closeAll() {
  await Promise.all([...live].map((handle) => handle.close()));
}

/**
 * Calls a tool and returns its structured result (or the text parsed as JSON,
 * or the raw text). A tool error throws: a failing call must never be timed as a fast one.
 */
export async function callTool(handle, name, args) {
  const result = await handle.client.callTool({ name, arguments: args });
  if (result.isError) {
    const text = (result.content ?? []).map((part) => part.text ?? '').join('\n');
    throw new Error(`${handle.name}: ${name} failed: ${text.slice(0, 2000)}`);
  }
  if (result.structuredContent !== undefined) return result.structuredContent;
  const text = (result.content ?? []).find((part) => part.type === 'text')?.text;
  if (text === undefined) return result;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function withStderr(error, name, stderrTail) {
  const message = error instanceof Error ? error.message : String(error);
  const wrapped = new Error(
    `${name}: ${message}${stderrTail ? `\n--- ${name} stderr (tail) ---\n${stderrTail}` : ''}`,
  );
  wrapped.cause = error;
  return wrapped;
}
