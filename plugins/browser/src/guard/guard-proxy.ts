/**
 * The network guard's enforcement: a proxy on 127.0.0.1 that every request of a local Chromium
 * goes through (main frames, sub-frames, sub-resources, each redirect hop, WebSockets — the
 * browser is started with no proxy bypass, loopback included). It resolves each name itself,
 * checks every address with the target policy, and connects to an address it checked, so a
 * name that resolves differently the second time reaches nothing. Refused requests get a 403
 * page (plain HTTP) or a refused tunnel (HTTPS), and are reported to the engine.
 *
 * Only the browser may use it: each request must carry the proxy credential the browser was
 * started with, so another local program cannot borrow its private-network access.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, request, type Server, type ServerResponse } from 'node:http';
import { connect, type Socket } from 'node:net';
import type { Disposable } from '@vmark/sdk';
import type { Resolver } from './resolver.js';
import { checkHost, type TargetOptions } from './target-policy.js';

export interface Refusal {
  /** `http://host:port/path` for plain requests, `https://host:port` for tunnels. */
  readonly target: string;
  readonly reason: string;
}

export interface GuardProxyOptions {
  readonly resolver: Resolver;
  /** Read for every request, so a change of the setting applies at once. */
  readonly policy: () => TargetOptions;
  readonly onRefused: (refusal: Refusal) => void;
}

export interface GuardProxy extends Disposable {
  /** `http://127.0.0.1:<port>`. */
  readonly server: string;
  readonly username: string;
  readonly password: string;
}

/** The header a refused request's page carries, so the engine can tell a refusal from a 403 site. */
export const REFUSED_HEADER = 'x-vmark-guard';

export async function startGuardProxy(options: GuardProxyOptions): Promise<GuardProxy> {
  const username = 'vmark';
  const password = randomBytes(18).toString('base64url');
  const expected = Buffer.from(`Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`);
  const authorized = (req: IncomingMessage): boolean => {
    const given = Buffer.from(req.headers['proxy-authorization'] ?? '');
    return given.length === expected.length && timingSafeEqual(given, expected);
  };
  const sockets = new Set<Socket>();

  const server: Server = createServer((req, res) => {
    if (!authorized(req)) return challenge(res);
    void forward(req, res, options);
  });
  server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
    if (!authorized(req)) {
      client.end(
        'HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="vmark"\r\n\r\n',
      );
      return;
    }
    void tunnel(req, client, head, options);
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return {
    server: `http://127.0.0.1:${port}`,
    username,
    password,
    dispose: () => {
      for (const socket of sockets) socket.destroy();
      server.close();
    },
  };
}

function challenge(res: ServerResponse): void {
  res.writeHead(407, { 'proxy-authenticate': 'Basic realm="vmark"' });
  res.end();
}

function refusedPage(res: ServerResponse, reason: string): void {
  const body = `<!doctype html><title>Blocked by vmark</title><p>vmark did not open this page: ${escapeHtml(reason)}.</p>`;
  res.writeHead(403, { 'content-type': 'text/html; charset=utf-8', [REFUSED_HEADER]: 'refused' });
  res.end(body);
}

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

/** A plain-HTTP request in absolute form (`GET http://host/path`). */
async function forward(req: IncomingMessage, res: ServerResponse, options: GuardProxyOptions): Promise<void> {
  let url: URL;
  try {
    url = new URL(req.url ?? '');
  } catch {
    res.writeHead(400);
    res.end();
    return;
  }
  if (url.protocol !== 'http:') {
    refusedPage(res, `only http and https pages may be opened, not ${url.protocol}`);
    return;
  }
  const verdict = await checkHost(url.hostname, options.resolver, options.policy());
  if (!verdict.allowed) {
    options.onRefused({ target: `http://${url.host}${url.pathname}`, reason: verdict.reason });
    refusedPage(res, verdict.reason);
    return;
  }
  const headers = { ...req.headers };
  delete headers['proxy-authorization'];
  delete headers['proxy-connection'];
  const upstream = request(
    {
      host: verdict.addresses[0],
      port: url.port === '' ? 80 : Number(url.port),
      path: `${url.pathname}${url.search}`,
      method: req.method,
      headers,
      setHost: false,
    },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    },
  );
  upstream.on('error', () => {
    if (!res.headersSent) res.writeHead(502);
    res.end();
  });
  req.pipe(upstream);
}

/** An HTTPS (or WebSocket over TLS) tunnel: `CONNECT host:port`. */
async function tunnel(
  req: IncomingMessage,
  client: Socket,
  head: Buffer,
  options: GuardProxyOptions,
): Promise<void> {
  client.on('error', () => client.destroy());
  const match = /^\[?([^\]]+?)\]?:(\d{1,5})$/.exec(req.url ?? '');
  if (!match) {
    client.end('HTTP/1.1 400 Bad Request\r\n\r\n');
    return;
  }
  const host = match[1]!;
  const port = match[2]!;
  const verdict = await checkHost(host, options.resolver, options.policy());
  if (!verdict.allowed) {
    options.onRefused({ target: `https://${req.url}`, reason: verdict.reason });
    client.end(`HTTP/1.1 403 Forbidden\r\n${REFUSED_HEADER}: refused\r\n\r\n`);
    return;
  }
  const address = verdict.addresses[0] ?? host;
  const upstream = connect(Number(port), address, () => {
    client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    if (head.length > 0) upstream.write(head);
    upstream.pipe(client);
    client.pipe(upstream);
  });
  upstream.on('error', () => {
    if (!client.destroyed) client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n');
  });
  client.on('close', () => upstream.destroy());
}
