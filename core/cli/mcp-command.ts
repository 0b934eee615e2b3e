import { parseArgs } from 'node:util';
import { serveStdio } from '../mcp/stdio-endpoint.js';
import { startHost } from './start-host.js';
import { UsageError } from './usage.js';

export async function mcpCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      workspace: { type: 'string' },
      open: { type: 'string', multiple: true },
      http: { type: 'boolean' },
      port: { type: 'string' },
    },
    strict: true,
  });
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!/^\d+$/.test(values.port ?? '0') || port > 65535)
    throw new UsageError(`--port must be 0–65535, got ${values.port}`);
  if (values.port !== undefined && !values.http) throw new UsageError('--port only applies with --http');

  const host = await startHost({ workspace: values.workspace, open: values.open, watchPluginState: true });
  const shutdown = async () => {
    await host.dispose();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown());
  process.once('SIGTERM', () => void shutdown());

  if (values.http) {
    // Imported only when asked for: the HTTP stack is a third of the stdio start-up time.
    const { serveHttp } = await import('../mcp/http-endpoint.js');
    const endpoint = await serveHttp(host, { port, token: process.env.VMARK_HTTP_TOKEN });
    process.stdout.write(JSON.stringify({ url: endpoint.url, token: endpoint.token }) + '\n');
    await new Promise(() => undefined);
  }
  await serveStdio(host);
  await host.dispose();
  return 0;
}
