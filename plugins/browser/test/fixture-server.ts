/**
 * Fixture pages for the browser tests, served in-process on 127.0.0.1. Two names, `a.test` and
 * `b.test`, map to it (Chromium's `--host-resolver-rules`, or VMARK_BROWSER_HOST_RULES through
 * the guard proxy): two sites, so an iframe of one in the other is cross-origin and runs out of
 * process. A page is its HTML, or a function of the two origins.
 */
import { createServer, type Server } from 'node:http';

export const HOST_RULES = 'MAP *.test 127.0.0.1';

export interface Origins {
  readonly a: string;
  readonly b: string;
}

export type Fixture = string | ((origins: Origins) => string);

export interface FixtureServer {
  readonly origins: Origins;
  /** `path` on `a.test` (or `b.test`). */
  url(path: string, host?: 'a' | 'b'): string;
  close(): Promise<void>;
}

export async function serveFixtures(pages: Readonly<Record<string, Fixture>>): Promise<FixtureServer> {
  let origins: Origins = { a: '', b: '' };
  const server: Server = createServer((request, response) => {
    const page = pages[(request.url ?? '/').split('?')[0]!];
    if (page === undefined) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(typeof page === 'string' ? page : page(origins));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  origins = { a: `http://a.test:${port}`, b: `http://b.test:${port}` };
  return {
    origins,
    url: (path, host = 'a') => `${origins[host]}${path}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
