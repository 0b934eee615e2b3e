import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A loopback reverse proxy that adds `Authorization: Bearer <token>` to every request, for MCP
 * clients that cannot send one (the official conformance suite's). Authentication stays on in the
 * server: the proxy holds the token, as an installed client would.
 *
 * Only the proxy's own address is translated: a `Host` or `Origin` naming it becomes the same
 * name at the upstream's port, and anything else passes unchanged, so that the server's DNS
 * rebinding check still sees a foreign `Host` as foreign. Bodies stream both ways (SSE).
 */
export async function startBearerProxy(
  upstreamUrl: string,
  token: string,
): Promise<{ url: string; close(): Promise<void> }> {
  const upstream = new URL(upstreamUrl);
  const server: Server = createServer((req, res) => {
    const own = (name: string) => name === `127.0.0.1:${port}` || name === `localhost:${port}`;
    const translated = (name: string) => `${name.slice(0, name.lastIndexOf(':'))}:${upstream.port}`;
    const headers = { ...req.headers, authorization: `Bearer ${token}` };
    if (req.headers.host !== undefined && own(req.headers.host)) headers.host = translated(req.headers.host);
    const origin = req.headers.origin;
    if (origin?.startsWith('http://') && own(origin.slice('http://'.length)))
      headers.origin = `http://${translated(origin.slice('http://'.length))}`;
    const forward = request(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on('error', () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    // A client that goes away (an SSE stream it closes) ends the upstream request too.
    res.on('close', () => forward.destroy());
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}${upstream.pathname}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
