import { createServer, type Server } from 'node:http';

/**
 * How long a connection may keep the server waiting. Node's own defaults (a minute for
 * headers, five for a request, checked every 30 seconds) let a silent or trickling client
 * hold a socket for minutes; every vmark server is for local clients, which send at once.
 */
export interface ConnectionTimeouts {
  /** From the connection (or the end of the last response) to the end of a request's headers. */
  readonly headersMs: number;
  /** From a request's first byte to the end of its body: a body trickled in slowly is cut off. */
  readonly requestMs: number;
  /** A kept-alive connection that sends no new request for this long is closed. */
  readonly keepAliveMs: number;
}

export const DEFAULT_CONNECTION_TIMEOUTS: ConnectionTimeouts = {
  headersMs: 10_000,
  // Room for the largest MCP message (256 MiB) from a loaded machine; loopback takes about a second.
  requestMs: 60_000,
  keepAliveMs: 5_000,
};

/**
 * An HTTP server whose connections are held to `timeouts`: a client too slow with its
 * headers or body gets 408 and is disconnected, an idle kept-alive connection is closed.
 * A response may take as long as it needs (a tool call waiting for a person's approval, the
 * notification stream): only receiving the request is timed.
 */
export function createHttpServer(timeouts: Partial<ConnectionTimeouts> = {}): Server {
  const { headersMs, requestMs, keepAliveMs } = { ...DEFAULT_CONNECTION_TIMEOUTS, ...timeouts };
  return createServer({
    headersTimeout: headersMs,
    requestTimeout: requestMs,
    keepAliveTimeout: keepAliveMs,
    // How often Node looks for connections past the header and request timeouts.
    connectionsCheckingInterval: Math.max(10, Math.min(1000, Math.floor(headersMs / 4))),
  });
}
