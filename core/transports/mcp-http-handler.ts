import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { bearerMatches } from '../control/bearer-token.js';
import type { Host } from '../composition/host.js';
import { readRequestBody } from '../net/request-body.js';
import { MAX_MESSAGE_BYTES } from '../mcp/message-limits.js';

/** What one MCP endpoint lets its clients hold (the connections' timeouts are the server's). */
export interface McpHttpLimits {
  /** A session with no open request for this long is closed (default 30 minutes). */
  readonly idleMs?: number;
  /** Sessions at once (default 64); past it a new one takes the place of the oldest idle one. */
  readonly maxSessions?: number;
  /** The largest request body, i.e. MCP message (default `MAX_MESSAGE_BYTES`, as on stdio). */
  readonly maxBodyBytes?: number;
}

export interface McpHttpHandlerOptions extends McpHttpLimits {
  /** The loopback port the server listens on: only `127.0.0.1:PORT` and `localhost:PORT` are served. */
  readonly port: number;
  /** The host's bearer token; an installed client's credential opens the endpoint too. */
  readonly token: string;
}

/** Clients that go away without DELETE leave sessions behind; idle ones are swept. */
const DEFAULT_IDLE_MS = 30 * 60 * 1000;
/** Each session is an MCP server of its own; a few AI clients and the editor use a handful. */
const DEFAULT_MAX_SESSIONS = 64;

interface Session {
  readonly transport: StreamableHTTPServerTransport;
  /** The client credential the session began with; undefined for the host's own token. */
  readonly credential: string | undefined;
  readonly dispose: () => void;
  /** Calls in flight (POST, DELETE): a session with one is never closed to make room. */
  calls: number;
  /** The client's notification streams (GET), open for as long as it listens. */
  streams: number;
  lastSeen: number;
}

/**
 * MCP over Streamable HTTP for whichever loopback server mounts it at `/mcp`
 * (`vmark mcp --http`, or the UI server of `vmark serve`): the Host and Origin
 * checks (DNS rebinding, other sites' pages), the bearer check, one MCP server
 * per session, each session pinned to the credential it began with, and the
 * limits of ADR 21 (message size as on stdio, a cap on sessions).
 */
export class McpHttpHandler {
  readonly #host: Host;
  readonly #token: string;
  readonly #hosts: readonly string[];
  readonly #origins: readonly string[];
  readonly #sessions = new Map<string, Session>();
  readonly #maxSessions: number;
  readonly #maxBodyBytes: number;
  /** Sessions being initialized: not in `#sessions` yet, but counted against the cap. */
  #starting = 0;
  readonly #sweep: NodeJS.Timeout;

  constructor(host: Host, options: McpHttpHandlerOptions) {
    this.#host = host;
    this.#token = options.token;
    this.#maxSessions = options.maxSessions ?? DEFAULT_MAX_SESSIONS;
    this.#maxBodyBytes = options.maxBodyBytes ?? MAX_MESSAGE_BYTES;
    this.#hosts = [`127.0.0.1:${options.port}`, `localhost:${options.port}`];
    // Browsers send Origin on cross-site requests; only the host's own pages may call.
    this.#origins = this.#hosts.map((name) => `http://${name}`);
    const idleMs = options.idleMs ?? DEFAULT_IDLE_MS;
    this.#sweep = setInterval(
      () => {
        for (const session of [...this.#sessions.values()]) {
          const open = session.calls + session.streams;
          if (open === 0 && Date.now() - session.lastSeen > idleMs) void session.transport.close();
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
      const stream = req.method === 'GET';
      if (stream) session.streams++;
      else session.calls++;
      session.lastSeen = Date.now();
      res.once('close', () => {
        if (stream) session.streams--;
        else session.calls--;
        session.lastSeen = Date.now();
      });
      if (req.method !== 'POST') return session.transport.handleRequest(req, res);
      const message = await this.#readMessage(req, res);
      if (message === undefined) return;
      return session.transport.handleRequest(req, res, message);
    }
    if (req.method !== 'POST') return reply(res, 400, -32000, 'Bad request: no MCP session');
    const body = await this.#readMessage(req, res);
    if (body === undefined) return;
    if (!isInitializeRequest(body)) return reply(res, 400, -32000, 'Bad request: initialize first');
    if (!this.#makeRoom())
      return reply(
        res,
        503,
        -32000,
        `Too many MCP sessions: all ${this.#maxSessions} have a call in flight; try again shortly`,
      );

    this.#starting++;
    let counted = true;
    const started = () => {
      if (counted) this.#starting--;
      counted = false;
    };
    const mcp = this.#host.createMcpSession(credential);
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        started();
        this.#sessions.set(id, {
          transport,
          credential,
          dispose: () => mcp.dispose(),
          calls: 0,
          streams: 0,
          lastSeen: Date.now(),
        });
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) this.#sessions.delete(transport.sessionId);
      mcp.dispose();
    };
    try {
      await mcp.server.connect(transport);
      await transport.handleRequest(req, res, body);
    } finally {
      started();
    }
  }

  /**
   * The request's JSON-RPC message, bounded as on stdio (the SDK's own reader stops at 4 MiB).
   * Undefined once the request has been answered: 413 as soon as the declared or the received
   * size passes the bound, without reading the rest, or 400 for a body that is not JSON.
   */
  async #readMessage(req: IncomingMessage, res: ServerResponse): Promise<unknown> {
    const read = await readRequestBody(req, this.#maxBodyBytes);
    if (read.tooLarge) {
      // The rest of the body stays unread: the connection ends with this answer.
      res.setHeader('Connection', 'close');
      reply(
        res,
        413,
        -32000,
        `Payload Too Large: an MCP message may be at most ${this.#maxBodyBytes} bytes, on every transport`,
      );
      return undefined;
    }
    try {
      return JSON.parse(read.body.toString('utf8')) as unknown;
    } catch {
      reply(res, 400, -32700, 'Parse error: Invalid JSON');
      return undefined;
    }
  }

  /**
   * Whether a new session fits, closing the oldest idle one when the cap is reached: one with
   * no call in flight, those without a notification stream first, then the longest unused.
   */
  #makeRoom(): boolean {
    if (this.#sessions.size + this.#starting < this.#maxSessions) return true;
    const idle = [...this.#sessions]
      .filter(([, session]) => session.calls === 0)
      .sort(([, a], [, b]) => a.streams - b.streams || a.lastSeen - b.lastSeen);
    const oldest = idle[0];
    if (oldest === undefined) return false;
    const [id, session] = oldest;
    // Out of the count at once; the transport's close ends its stream and disposes its server.
    this.#sessions.delete(id);
    void session.transport.close();
    return true;
  }
}

function reply(res: ServerResponse, status: number, code: number, message: string): void {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}
