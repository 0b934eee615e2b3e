import { createServer } from 'node:http';

/** One HTML page served on 127.0.0.1 for the browser tests, at every path. */
export interface LocalPage {
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
  close(): void;
}

export async function serveLocalPage(html: string): Promise<LocalPage> {
  const server = createServer((_req, res) => {
    res.setHeader('content-type', 'text/html');
    res.end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    close: () => void server.close(),
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
