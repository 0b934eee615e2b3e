import { createServer, type RequestListener } from 'node:http';

/** One HTML page served on 127.0.0.1 for the browser tests, at every path but those `routes` answer. */
export interface LocalPage {
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
  /** The paths asked for, in order. */
  readonly asked: readonly string[];
  close(): void;
}

/** Answers for some paths (without their query): an icon, a page that takes its time. */
export type LocalRoutes = Readonly<Record<string, RequestListener>>;

export async function serveLocalPage(html: string, routes: LocalRoutes = {}): Promise<LocalPage> {
  const asked: string[] = [];
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://placeholder').pathname;
    asked.push(path);
    const route = Object.hasOwn(routes, path) ? routes[path] : undefined;
    if (route !== undefined) return void route(req, res);
    res.setHeader('content-type', 'text/html');
    res.end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    asked,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

/**
 * Lets the hosts started from here on reach pages on this machine (`VMARK_BROWSER_ALLOW_PRIVATE`,
 * read when a host starts); returns how to put back what was there.
 */
export function allowPrivateNetwork(): () => void {
  const saved = process.env.VMARK_BROWSER_ALLOW_PRIVATE;
  process.env.VMARK_BROWSER_ALLOW_PRIVATE = '1';
  return () => {
    if (saved === undefined) delete process.env.VMARK_BROWSER_ALLOW_PRIVATE;
    else process.env.VMARK_BROWSER_ALLOW_PRIVATE = saved;
  };
}
