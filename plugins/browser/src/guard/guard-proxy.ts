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
import { checkHost, type TargetOptions, type TargetVerdict } from './target-policy.js';

export interface Refusal {
  /** `http://host:port/path` for plain requests, `https://host:port` for tunnels. */
  readonly target: string;
  readonly reason: string;
  /** For a refused redirect hop, when known: the URL the redirect chain started from. */
  readonly via?: string;
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
    forward(req, res, options).catch(() => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
  });
  server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
    // The server hands the socket over without its error handler: a browser that resets it (Chromium
    // stopped while its refused CONNECT was answered) must not throw in the host.
    client.on('error', () => client.destroy());
    if (!authorized(req)) {
      client.end(
        'HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="vmark"\r\n\r\n',
      );
      return;
    }
    tunnel(req, client, head, options).catch(() => client.destroy());
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

/** The policy's verdict; a guard that cannot decide refuses. */
async function verdictFor(host: string, options: GuardProxyOptions): Promise<TargetVerdict> {
  try {
    return await checkHost(host, options.resolver, options.policy());
  } catch {
    return { allowed: false, kind: 'unresolved', reason: `the network guard could not check ${host}` };
  }
}

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
  const verdict = await verdictFor(url.hostname, options);
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
      // Redirects go back to the browser as they are: its next hop is a request of its own,
      // checked like any other.
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
      answer.on('error', () => res.destroy());
    },
  );
  upstream.on('error', () => {
    if (!res.headersSent) res.writeHead(502);
    res.end();
  });
  // The browser gave up on it (a tab closed on a page that never finishes): so does the proxy.
  res.on('close', () => upstream.destroy());
  req.pipe(upstream);
}

/** An HTTPS (or WebSocket over TLS) tunnel: `CONNECT host:port`. */
async function tunnel(
  req: IncomingMessage,
  client: Socket,
  head: Buffer,
  options: GuardProxyOptions,
): Promise<void> {
  const match = /^\[?([^\]]+?)\]?:(\d{1,5})$/.exec(req.url ?? '');
  if (!match) {
    client.end('HTTP/1.1 400 Bad Request\r\n\r\n');
    return;
  }
  const [, host, portText] = match as unknown as [string, string, string];
  const port = Number(portText);
  if (port < 1 || port > 65535) {
    client.end('HTTP/1.1 400 Bad Request\r\n\r\n');
    return;
  }
  const verdict = await verdictFor(host, options);
  if (!verdict.allowed) {
    options.onRefused({ target: `https://${req.url}`, reason: verdict.reason });
    client.end(`HTTP/1.1 403 Forbidden\r\n${REFUSED_HEADER}: refused\r\n\r\n`);
    return;
  }
  let established = false;
  // An address the policy checked (it never allows a name with none), not the name again.
  const address: string = verdict.addresses[0] ?? '0.0.0.0';
  const upstream = connect(port, address, () => {
    established = true;
    client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    if (head.length > 0) upstream.write(head);
    upstream.pipe(client);
    client.pipe(upstream);
  });
  upstream.on('error', () => {
    // Once the tunnel is up its bytes are the browser's TLS: an error ends it, nothing is written.
    if (established) client.destroy();
    else if (!client.destroyed) client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n');
  });
  client.on('close', () => upstream.destroy());
}
