import type { Readable, Writable } from 'node:stream';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import {
  isInitializeRequest,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';
import { LineChunks } from './line-chunks.js';
import { MAX_MESSAGE_BYTES } from '../mcp/message-limits.js';

export interface StdioProxyOptions {
  /** The running host's MCP endpoint (`/mcp` on its UI port). */
  readonly url: string;
  /** Sent as `Authorization: Bearer`: an installed client's credential, or the host's token. */
  readonly bearer: string;
  /** Whether the host process still lives; checked on every upstream error and once a second. */
  readonly hostAlive: () => boolean;
  readonly input: Readable;
  readonly output: Writable;
  /** Where problems are reported (stdout is the protocol). */
  readonly log: (line: string) => void;
}

/** Why the proxy stopped: the client closed its side, or the host went away. */
export type ProxyEnd = 'client-closed' | 'host-gone';

/** How often the host's process is looked at, besides after every upstream error. */
const LIVENESS_INTERVAL_MS = 1000;

/**
 * Relays MCP between a client on stdio and a running host over Streamable
 * HTTP, message by message and in both directions: requests and their
 * answers, notifications such as `tools/list_changed`, and the host's own
 * requests such as elicitation. Resolves when either side is gone.
 */
export async function proxyStdio(options: StdioProxyOptions): Promise<ProxyEnd> {
  const { log } = options;
  const upstream = new StreamableHTTPClientTransport(new URL(options.url), {
    requestInit: { headers: { Authorization: `Bearer ${options.bearer}` } },
  });
  const input = options.input.pipe(new LineChunks(MAX_MESSAGE_BYTES));
  const downstream = new StdioServerTransport(input, options.output, { maxBufferSize: MAX_MESSAGE_BYTES });

  let finish: (end: ProxyEnd) => void = () => undefined;
  const ended = new Promise<ProxyEnd>((resolve) => (finish = resolve));
  const checkHost = () => {
    if (!options.hostAlive()) finish('host-gone');
  };
  const liveness = setInterval(checkHost, LIVENESS_INTERVAL_MS);
  liveness.unref();

  // The client's initialize passes through; its answer fixes the protocol version the
  // transport must name on every later request, as the SDK's own Client would set it.
  let initializeId: RequestId | undefined;
  downstream.onmessage = (message: JSONRPCMessage) => {
    if (isInitializeRequest(message) && isJSONRPCRequest(message)) initializeId = message.id;
    upstream.send(message).catch((error: unknown) => {
      checkHost();
      const reason = error instanceof Error ? error.message : String(error);
      log(`vmark: attached MCP: ${reason}`);
      // A request must be answered, or the client waits for ever.
      if (isJSONRPCRequest(message)) {
        void downstream
          .send({
            jsonrpc: '2.0',
            id: message.id,
            error: { code: -32603, message: `The running vmark host did not take the request: ${reason}` },
          })
          .catch(() => finish('client-closed'));
      }
    });
  };
  upstream.onmessage = (message: JSONRPCMessage) => {
    if (initializeId !== undefined && isJSONRPCResultResponse(message) && message.id === initializeId) {
      const version = (message.result as { protocolVersion?: unknown }).protocolVersion;
      if (typeof version === 'string') upstream.setProtocolVersion(version);
      initializeId = undefined;
    }
    downstream.send(message).catch(() => finish('client-closed'));
  };
  upstream.onerror = (error) => {
    checkHost();
    // The notification stream gave up reconnecting: the host no longer answers, alive or not.
    if (/Maximum reconnection attempts/.test(error.message)) finish('host-gone');
    else log(`vmark: attached MCP: ${error.message}`);
  };
  downstream.onerror = (error) => log(`vmark: MCP stdio: ${error.message}`);
  downstream.onclose = () => finish('client-closed');
  input.once('end', () => finish('client-closed'));
  options.input.once('close', () => finish('client-closed'));

  await upstream.start();
  await downstream.start();
  const end = await ended;
  clearInterval(liveness);
  // A client that leaves ends its session on the host, so the host need not wait for the idle sweep.
  if (end === 'client-closed') await upstream.terminateSession().catch(() => undefined);
  await upstream.close();
  await downstream.close();
  return end;
}
