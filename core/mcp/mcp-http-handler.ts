import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { bearerMatches } from '../control/bearer-token.js';
import type { Host } from '../host.js';
import { MAX_MESSAGE_BYTES } from './message-limits.js';

export interface McpHttpHandlerOptions {
  /** The loopback port the server listens on: only `127.0.0.1:PORT` and `localhost:PORT` are served. */
  readonly port: number;
  /** The host's bearer token; an installed client's credential opens the endpoint too. */
  readonly token: string;
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
 * MCP over Streamable HTTP for whichever loopback server mounts it at `/mcp`
 * (`vmark mcp --http`, or the UI server of `vmark serve`): the Host and Origin
 * checks (DNS rebinding, other sites' pages), the bearer check, one MCP server
 * per session, each session pinned to the credential it began with.
 */
export class McpHttpHandler {
  readonly #host: Host;
  readonly #token: string;
  readonly #hosts: readonly string[];
  readonly #origins: readonly string[];
  readonly #sessions = new Map<string, Session>();
  readonly #sweep: NodeJS.Timeout;

  constructor(host: Host, options: McpHttpHandlerOptions) {
    this.#host = host;
    this.#token = options.token;
    this.#hosts = [`127.0.0.1:${options.port}`, `localhost:${options.port}`];
    // Browsers send Origin on cross-site requests; only the host's own pages may call.
    this.#origins = this.#hosts.map((name) => `http://${name}`);
    const idleMs = options.idleMs ?? DEFAULT_IDLE_MS;
    this.#sweep = setInterval(
      () => {
        for (const session of [...this.#sessions.values()]) {
          if (session.open === 0 && Date.now() - session.lastSeen > idleMs) void session.transport.close();
        }
      },
      Math.min(idleMs, 60_000),
    );
    this.#sweep.unref();
  }

  /** Serves one request to `/mcp`; never throws (a failure becomes a JSON-RPC error reply). */
  handle(req: IncomingMessage, res: ServerResponse): void {
    void this.#handle(req, res).catch((error: unknown) => {
      if (!res.headersSent)
        reply(res, 500, -32603, error instanceof Error ? error.message : 'Internal error');
    });
  }

  async close(): Promise<void> {
    clearInterval(this.#sweep);
    for (const session of [...this.#sessions.values()]) {
      await session.transport.close();
      session.dispose();
    }
    this.#sessions.clear();
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // Checked before the token, so a rebound or foreign page learns nothing from the answer.
    if (!this.#hosts.includes(req.headers.host ?? ''))
      return reply(res, 403, -32001, 'Forbidden: unexpected Host header');
    const origin = req.headers.origin;
    if (origin !== undefined && !this.#origins.includes(origin))
      return reply(res, 403, -32001, 'Forbidden: unexpected Origin header');
    const hostToken = bearerMatches(req.headers.authorization, this.#token);
    // Besides the host's token, an installed client's own credential opens the endpoint, and
    // then names the client (its principal) to the tools.
    const credential = hostToken
      ? undefined
      : /^Bearer +(\S+) *$/i.exec(req.headers.authorization ?? '')?.[1];
    if (!hostToken && this.#host.credentials.identify(credential) === null) {
      res.setHeader('WWW-Authenticate', 'Bearer realm="vmark"');
      return reply(res, 401, -32001, 'Unauthorized: send Authorization: Bearer <token>');
    }
    const sessionId = req.headers['mcp-session-id'];
    if (typeof sessionId === 'string') {
      const session = this.#sessions.get(sessionId);
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

    const mcp = this.#host.createMcpSession(credential);
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        this.#sessions.set(id, {
          transport,
          credential,
          dispose: () => mcp.dispose(),
          open: 0,
          lastSeen: Date.now(),
        });
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) this.#sessions.delete(transport.sessionId);
      mcp.dispose();
    };
    await mcp.server.connect(transport);
    await transport.handleRequest(req, res, body);
  }
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
