import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Pages for the browser's tests, served in-process on loopback. Every request is counted, so a
 * test can show that a refused target was never reached.
 */

export type PageHandler = (req: IncomingMessage, res: ServerResponse) => void;

export interface Hit {
  readonly host: string;
  readonly path: string;
  readonly cookie: string | undefined;
}

export interface PageServer {
  readonly port: number;
  /** `http://127.0.0.1:<port>`. */
  readonly origin: string;
  /** Every request the server got, in order. */
  readonly hits: Hit[];
  /** How many requests asked for `path` (with its query). */
  count(path: string): number;
  /** Answers `path` (without its query) with `handler`. */
  route(path: string, handler: PageHandler): void;
  /** Answers `path` with an HTML page. */
  html(path: string, body: string, headers?: Record<string, string>): void;
  /** Answers `path` with a fixture file of this package's `test/fixtures/`. */
  fixture(path: string, file: string): void;
  close(): Promise<void>;
}

const FIXTURES = new URL('./fixtures/', import.meta.url);

export async function startPageServer(host = '127.0.0.1'): Promise<PageServer> {
  const routes = new Map<string, PageHandler>();
  const hits: Hit[] = [];
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://placeholder');
    hits.push({
      host: req.headers.host ?? '',
      path: `${url.pathname}${url.search}`,
      cookie: req.headers.cookie,
    });
    const handler = routes.get(url.pathname);
    if (handler) return handler(req, res);
    res.writeHead(404, { 'content-type': 'text/html' });
    res.end('<title>Not found</title>');
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const port = (server.address() as AddressInfo).port;
  const html = (path: string, body: string, headers: Record<string, string> = {}) =>
    routes.set(path, (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', ...headers });
      res.end(body);
    });
  return {
    port,
    origin: `http://${host}:${port}`,
    hits,
    count: (path) => hits.filter((hit) => hit.path === path).length,
    route: (path, handler) => routes.set(path, handler),
    html,
    fixture: (path, file) => html(path, readFileSync(new URL(file, FIXTURES), 'utf8')),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
