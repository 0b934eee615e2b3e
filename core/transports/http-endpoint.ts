import { newBearerToken } from '../control/bearer-token.js';
import type { Host } from '../composition/host.js';
import { type ConnectionTimeouts, createHttpServer } from '../net/http-server.js';
import { listenOnLoopback } from '../net/listen-on-loopback.js';
import { McpHttpHandler, type McpHttpLimits } from './mcp-http-handler.js';

export interface HttpEndpoint {
  readonly url: string;
  readonly token: string;
  close(): Promise<void>;
}

export interface HttpEndpointOptions extends McpHttpLimits {
  /** 0 picks a free port. */
  readonly port: number;
  /** The bearer token clients must send; a fresh random one when omitted. */
  readonly token?: string;
  /** Defaults in `DEFAULT_CONNECTION_TIMEOUTS`; tests shorten them. */
  readonly timeouts?: Partial<ConnectionTimeouts>;
}

/**
 * `vmark mcp --http`: a server of its own on 127.0.0.1 with nothing but the
 * MCP handler at `/mcp` (`vmark serve` mounts the same handler on its UI port).
 */
export async function serveHttp(host: Host, options: HttpEndpointOptions): Promise<HttpEndpoint> {
  const token = options.token ?? newBearerToken();
  const server = createHttpServer(options.timeouts);
  const port = await listenOnLoopback(server, options.port);
  const { idleMs, maxSessions, maxBodyBytes } = options;
  const handler = new McpHttpHandler(host, { port, token, idleMs, maxSessions, maxBodyBytes });
  server.on('request', (req, res) => {
    if (new URL(req.url ?? '/', 'http://127.0.0.1').pathname === '/mcp') return handler.handle(req, res);
    res.writeHead(404, { 'Content-Type': 'application/json' });
    res.end(
      JSON.stringify({
        jsonrpc: '2.0',
        error: { code: -32601, message: 'Not found: the MCP endpoint is /mcp' },
        id: null,
      }),
    );
  });
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    token,
    async close() {
      await handler.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
