import { randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { Host } from '../host.js';
import { listenOnLoopback } from '../net/listen-on-loopback.js';
import { MAX_MESSAGE_BYTES } from './message-limits.js';

export interface HttpEndpoint {
  readonly url: string;
  readonly token: string;
  close(): Promise<void>;
}

export interface HttpEndpointOptions {
  /** 0 picks a free port. */
  readonly port: number;
  /** The bearer token clients must send; a fresh random one when omitted. */
  readonly token?: string;
  /** A session with no open request for this long is closed (default 30 minutes). */
  readonly idleMs?: number;
}

/** Clients that go away without DELETE leave sessions behind; idle ones are swept. */
const DEFAULT_IDLE_MS = 30 * 60 * 1000;

interface Session {
  readonly transport: StreamableHTTPServerTransport;
  /** The client credential the session began with; undefined for the host's own token. */
  readonly credential: string | undefined;
  readonly dispose: () => void;
  /** Requests in flight, the client's notification stream (GET) among them. */
  open: number;
  lastSeen: number;
}

/**
 * Streamable HTTP at `/mcp` on 127.0.0.1 only, behind a bearer token, one MCP
 * server per session. Host and Origin are checked too, so a web page cannot
 * reach it through DNS rebinding.
 */
export async function serveHttp(host: Host, options: HttpEndpointOptions): Promise<HttpEndpoint> {
  const token = options.token ?? randomBytes(32).toString('base64url');
  const expected = Buffer.from(`Bearer ${token}`);
  const sessions = new Map<string, Session>();
  let allowedHosts: string[] = [];
  let allowedOrigins: string[] = [];

  const server = createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => {
      if (!res.headersSent)
        reply(res, 500, -32603, error instanceof Error ? error.message : 'Internal error');
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== '/mcp') return reply(res, 404, -32601, 'Not found: the MCP endpoint is /mcp');
    const given = Buffer.from(req.headers.authorization ?? '');
    const hostToken = given.length === expected.length && timingSafeEqual(given, expected);
    // Besides the host's token, an installed client's own credential opens the endpoint, and
    // then names the client (its principal) to the tools.
    const credential = hostToken
      ? undefined
      : /^Bearer +(\S+) *$/i.exec(req.headers.authorization ?? '')?.[1];
    if (!hostToken && host.credentials.identify(credential) === null) {
      res.setHeader('WWW-Authenticate', 'Bearer realm="vmark"');
      return reply(res, 401, -32001, 'Unauthorized: send Authorization: Bearer <token>');
    }
    const sessionId = req.headers['mcp-session-id'];
    if (typeof sessionId === 'string') {
      const session = sessions.get(sessionId);
      if (!session) return reply(res, 404, -32001, 'Unknown or expired MCP session');
      // A session keeps the identity it began with: another credential cannot borrow it.
      if (session.credential !== credential)
        return reply(res, 403, -32001, 'Forbidden: this MCP session belongs to another credential');
      session.open++;
      res.once('close', () => {
        session.open--;
        session.lastSeen = Date.now();
      });
      return session.transport.handleRequest(req, res);
    }
    if (req.method !== 'POST') return reply(res, 400, -32000, 'Bad request: no MCP session');
    const body = await readJson(req);
    if (!isInitializeRequest(body)) return reply(res, 400, -32000, 'Bad request: initialize first');

    const mcp = host.createMcpSession(credential);
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      enableDnsRebindingProtection: true,
      allowedHosts,
      // Browsers send Origin on cross-site requests; only the host's own pages may call.
      allowedOrigins,
      onsessioninitialized: (id) => {
        sessions.set(id, {
          transport,
          credential,
          dispose: () => mcp.dispose(),
          open: 0,
          lastSeen: Date.now(),
        });
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
      mcp.dispose();
    };
    await mcp.server.connect(transport);
    await transport.handleRequest(req, res, body);
  }

  const port = await listenOnLoopback(server, options.port);
  const idleMs = options.idleMs ?? DEFAULT_IDLE_MS;
  const sweep = setInterval(
    () => {
      for (const session of [...sessions.values()]) {
        if (session.open === 0 && Date.now() - session.lastSeen > idleMs) void session.transport.close();
      }
    },
    Math.min(idleMs, 60_000),
  );
  sweep.unref();
  allowedHosts = [`127.0.0.1:${port}`, `localhost:${port}`];
  allowedOrigins = allowedHosts.map((host) => `http://${host}`);
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    token,
    async close() {
      clearInterval(sweep);
      for (const session of sessions.values()) {
        await session.transport.close();
        session.dispose();
      }
      sessions.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_MESSAGE_BYTES) throw new Error('Request body too large');
    chunks.push(chunk);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}

function reply(res: ServerResponse, status: number, code: number, message: string): void {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}
