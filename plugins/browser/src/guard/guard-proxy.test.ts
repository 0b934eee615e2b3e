import { createServer, type IncomingMessage, request, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type GuardProxy, type Refusal, REFUSED_HEADER, startGuardProxy } from './guard-proxy.js';
import { type Resolver, systemResolver } from './resolver.js';
import { checkTarget, type TargetOptions } from './target-policy.js';

/** A page server that counts every request it gets, by path. */
interface Upstream {
  readonly port: number;
  readonly hits: string[];
  readonly headers: IncomingMessage['headers'][];
  readonly server: Server;
}

type Answerer = (req: IncomingMessage, res: ServerResponse) => void;

async function upstream(host: string, port = 0, answer?: Answerer): Promise<Upstream> {
  const hits: string[] = [];
  const headers: IncomingMessage['headers'][] = [];
  const server = createServer((req, res) => {
    hits.push(req.url ?? '');
    headers.push(req.headers);
    if (answer) return answer(req, res);
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end(`${host} ${req.url}`);
  });
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  return { port: (server.address() as AddressInfo).port, hits, headers, server };
}

interface Answer {
  readonly status: number;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
}

/** A request through the proxy in absolute form, as Chromium sends plain-HTTP requests to it. */
function viaProxy(proxy: GuardProxy, url: string, credential = true): Promise<Answer> {
  const { port } = new URL(proxy.server);
  const auth = Buffer.from(`${proxy.username}:${proxy.password}`).toString('base64');
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: url,
        headers: {
          host: new URL(url).host,
          ...(credential ? { 'proxy-authorization': `Basic ${auth}` } : {}),
        },
      },
      (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** `CONNECT host:port` through the proxy; the tunnel's socket when it is established. */
function tunnelVia(
  proxy: GuardProxy,
  target: string,
  credential = true,
): Promise<{ status: number; headers: IncomingMessage['headers']; socket: Socket }> {
  const { port } = new URL(proxy.server);
  const auth = Buffer.from(`${proxy.username}:${proxy.password}`).toString('base64');
  return new Promise((resolve, reject) => {
    const req = request({
      host: '127.0.0.1',
      port,
      method: 'CONNECT',
      path: target,
      headers: credential ? { 'proxy-authorization': `Basic ${auth}` } : {},
    });
    req.on('connect', (res, socket) =>
      resolve({ status: res.statusCode ?? 0, headers: res.headers, socket }),
    );
    // A refusal that closes the socket before any status line.
    req.on('error', reject);
    req.end();
  });
}

/** A resolver whose answers change from one lookup to the next, as a rebinding DNS server's do. */
function rebinding(answers: readonly (readonly string[])[]): Resolver & { lookups: number } {
  const resolver = {
    lookups: 0,
    resolve: () => Promise.resolve(answers[Math.min(resolver.lookups++, answers.length - 1)]!),
  };
  return resolver;
}

let policy: TargetOptions = { allowPrivateNetwork: false };
const refusals: Refusal[] = [];
const proxies: GuardProxy[] = [];

async function proxyWith(resolver: Resolver): Promise<GuardProxy> {
  const proxy = await startGuardProxy({
    resolver,
    policy: () => policy,
    onRefused: (refusal) => refusals.push(refusal),
  });
  proxies.push(proxy);
  return proxy;
}

let a: Upstream;
let b: Upstream;

beforeAll(async () => {
  a = await upstream('127.0.0.1');
  // The same port on another loopback address: where a second lookup would lead.
  b = await upstream('127.0.0.2', a.port);
});
afterAll(() => {
  a.server.close();
  b.server.close();
});
afterEach(() => {
  for (const proxy of proxies.splice(0)) proxy.dispose();
  refusals.splice(0);
  a.hits.splice(0);
  b.hits.splice(0);
  policy = { allowPrivateNetwork: false };
});

describe('the guard proxy', () => {
  it('listens on loopback and wants its own credential: 407 without it, for requests and tunnels', async () => {
    const proxy = await proxyWith(systemResolver(''));
    expect(proxy.server).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(proxy.password.length).toBeGreaterThanOrEqual(20);
    policy = { allowPrivateNetwork: true };
    const plain = await viaProxy(proxy, `http://127.0.0.1:${a.port}/x`, false);
    expect(plain.status).toBe(407);
    expect(plain.headers['proxy-authenticate']).toBe('Basic realm="vmark"');
    const wrong = await viaProxy(
      { ...proxy, password: `${proxy.password.slice(1)}x` },
      `http://127.0.0.1:${a.port}/`,
    );
    expect(wrong.status).toBe(407);
    const tunnel = await tunnelVia(proxy, `127.0.0.1:${a.port}`, false);
    expect(tunnel.status).toBe(407);
    tunnel.socket.destroy();
    expect(a.hits).toEqual([]);
  });

  it('forwards an allowed request without its credential, and the page’s Host as it was', async () => {
    const proxy = await proxyWith(systemResolver('MAP site.test 127.0.0.1'));
    policy = { allowPrivateNetwork: true };
    const answer = await viaProxy(proxy, `http://site.test:${a.port}/page?q=1`);
    expect(answer).toMatchObject({ status: 200, body: '127.0.0.1 /page?q=1' });
    expect(a.headers.at(-1)).toMatchObject({ host: `site.test:${a.port}` });
    expect(a.headers.at(-1)).not.toHaveProperty('proxy-authorization');
  });

  it.each([
    'http://127.0.0.1:PORT/secret',
    'http://evil.test:PORT/secret',
    'http://[::1]:PORT/secret',
    'http://[::ffff:127.0.0.1]:PORT/secret',
    'http://0.0.0.0:PORT/secret',
    'http://2130706433:PORT/secret',
    'http://0x7f.1:PORT/secret',
  ])(
    'refuses %s with private networks off: a 403 page marked as the guard’s, nothing sent',
    async (template) => {
      const proxy = await proxyWith(systemResolver('MAP evil.test 127.0.0.1'));
      const url = template.replace('PORT', String(a.port));
      const answer = await viaProxy(proxy, url);
      expect(answer.status).toBe(403);
      expect(answer.headers[REFUSED_HEADER]).toBe('refused');
      expect(answer.body).toMatch(/^<!doctype html><title>Blocked by vmark<\/title>/);
      expect(refusals).toEqual([
        {
          target: expect.stringMatching(/^http:\/\/.+\/secret$/),
          reason: expect.stringMatching(/(loopback|unspecified) address/),
        },
      ]);
      expect(a.hits).toEqual([]);
    },
  );

  it('refuses a tunnel to a private target (CONNECT), and opens one to an allowed target', async () => {
    const proxy = await proxyWith(systemResolver('MAP evil.test 127.0.0.1'));
    const refused = await tunnelVia(proxy, `evil.test:${a.port}`);
    expect(refused.status).toBe(403);
    expect(refused.headers[REFUSED_HEADER]).toBe('refused');
    refused.socket.destroy();
    expect(refusals).toEqual([
      { target: `https://evil.test:${a.port}`, reason: expect.stringMatching(/loopback/) },
    ]);

    policy = { allowPrivateNetwork: true };
    const open = await tunnelVia(proxy, `evil.test:${a.port}`);
    expect(open.status).toBe(200);
    const reply = await new Promise<string>((resolve) => {
      let text = '';
      open.socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
      open.socket.on('end', () => resolve(text));
      open.socket.write(`GET /through HTTP/1.1\r\nHost: evil.test\r\nConnection: close\r\n\r\n`);
    });
    expect(reply).toMatch(/^HTTP\/1\.1 200 OK/);
    expect(a.hits).toEqual(['/through']);
  });

  it('refuses a malformed tunnel target and survives it', async () => {
    const proxy = await proxyWith(systemResolver(''));
    policy = { allowPrivateNetwork: true };
    for (const target of [`127.0.0.1:99999`, `127.0.0.1:0`, 'no-port', '127.0.0.1:']) {
      const answer = await tunnelVia(proxy, target);
      expect([target, answer.status]).toEqual([target, 400]);
      answer.socket.destroy();
    }
    expect((await viaProxy(proxy, `http://127.0.0.1:${a.port}/after`)).status).toBe(200);
  });

  it('survives a browser that resets the connection of a tunnel it was refused (Chromium stopped)', async () => {
    const proxy = await proxyWith(systemResolver(''));
    for (let i = 0; i < 5; i++) {
      const answer = await tunnelVia(proxy, `127.0.0.1:${a.port}`, false);
      expect(answer.status).toBe(407);
      answer.socket.resetAndDestroy();
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
    policy = { allowPrivateNetwork: true };
    expect((await viaProxy(proxy, `http://127.0.0.1:${a.port}/after`)).status).toBe(200);
  });

  it('answers a request that is not in absolute form, or not http, without sending it anywhere', async () => {
    const proxy = await proxyWith(systemResolver(''));
    policy = { allowPrivateNetwork: true };
    const ftp = await viaProxy(proxy, `ftp://127.0.0.1:${a.port}/file`);
    expect(ftp.status).toBe(403);
    expect(ftp.body).toContain('only http and https pages may be opened, not ftp:');
    const { port } = new URL(proxy.server);
    const auth = Buffer.from(`${proxy.username}:${proxy.password}`).toString('base64');
    const originForm = await new Promise<number>((resolve) => {
      request(
        { host: '127.0.0.1', port, path: '/', headers: { 'proxy-authorization': `Basic ${auth}` } },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      ).end();
    });
    expect(originForm).toBe(400);
    expect(a.hits).toEqual([]);
  });

  it('hands a redirect back to the browser as it is, so that its next hop is checked on its own', async () => {
    const redirecting = await upstream('127.0.0.1', 0, (_req, res) => {
      res.writeHead(302, { location: `http://127.0.0.2:${a.port}/secret` });
      res.end();
    });
    try {
      const proxy = await proxyWith(systemResolver(''));
      policy = { allowPrivateNetwork: true };
      const answer = await viaProxy(proxy, `http://127.0.0.1:${redirecting.port}/start`);
      expect(answer.status).toBe(302);
      expect(answer.headers.location).toBe(`http://127.0.0.2:${a.port}/secret`);
      expect(b.hits).toEqual([]);
      // The hop, as the browser then asks for it, with private networks off: refused.
      policy = { allowPrivateNetwork: false };
      expect((await viaProxy(proxy, answer.headers.location!)).status).toBe(403);
      expect(b.hits).toEqual([]);
    } finally {
      redirecting.server.close();
    }
  });

  it('reads the policy for every request: a change of the setting applies at once', async () => {
    const proxy = await proxyWith(systemResolver(''));
    policy = { allowPrivateNetwork: true };
    expect((await viaProxy(proxy, `http://127.0.0.1:${a.port}/1`)).status).toBe(200);
    policy = { allowPrivateNetwork: false };
    expect((await viaProxy(proxy, `http://127.0.0.1:${a.port}/2`)).status).toBe(403);
    expect(a.hits).toEqual(['/1']);
  });

  describe('DNS rebinding', () => {
    it('connects to the address it checked, never looking the name up again', async () => {
      // First answer 127.0.0.1 (server a), every later one 127.0.0.2 (server b, same port).
      const dns = rebinding([['127.0.0.1'], ['127.0.0.2']]);
      const proxy = await proxyWith(dns);
      policy = { allowPrivateNetwork: true };
      const answer = await viaProxy(proxy, `http://rebind.test:${a.port}/first`);
      expect(answer.body).toBe('127.0.0.1 /first');
      expect(dns.lookups).toBe(1);
      expect(a.hits).toEqual(['/first']);
      expect(b.hits).toEqual([]);

      const tunnel = await tunnelVia(proxy, `rebind.test:${a.port}`);
      expect(tunnel.status).toBe(200);
      tunnel.socket.destroy();
      expect(dns.lookups).toBe(2);
    });

    it('refuses a name that was public when the navigation was checked and is private when the request goes', async () => {
      const dns = rebinding([['93.184.215.14'], ['127.0.0.1']]);
      // The navigator's check, before the page is asked for: public.
      expect(await checkTarget(`http://rebind.test:${a.port}/`, dns, policy)).toMatchObject({
        allowed: true,
      });
      const proxy = await proxyWith(dns);
      const answer = await viaProxy(proxy, `http://rebind.test:${a.port}/`);
      expect(answer.status).toBe(403);
      expect(refusals.at(-1)?.reason).toMatch(
        /^rebind\.test is a loopback address \(this machine\) \(127\.0\.0\.1\)/,
      );
      expect(a.hits).toEqual([]);
    });
  });

  it('drops the upstream request when the browser gives up on a page that never finishes', async () => {
    let upstreamClosed!: () => void;
    const closed = new Promise<void>((resolve) => (upstreamClosed = resolve));
    const endless = await upstream('127.0.0.1', 0, (req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.write('<p>still loading');
      req.socket.on('close', upstreamClosed);
    });
    try {
      const proxy = await proxyWith(systemResolver(''));
      policy = { allowPrivateNetwork: true };
      const { port } = new URL(proxy.server);
      const auth = Buffer.from(`${proxy.username}:${proxy.password}`).toString('base64');
      await new Promise<void>((resolve) => {
        const req = request(
          {
            host: '127.0.0.1',
            port,
            path: `http://127.0.0.1:${endless.port}/endless`,
            headers: { 'proxy-authorization': `Basic ${auth}` },
          },
          (res) => {
            res.once('data', () => {
              req.destroy();
              resolve();
            });
          },
        );
        req.end();
      });
      await closed;
    } finally {
      endless.server.close();
    }
  });
});
