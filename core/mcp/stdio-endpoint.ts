import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Host } from '../host.js';

/** Serves MCP on stdin/stdout until the client closes stdin. Resolves when the session has ended. */
export async function serveStdio(host: Host): Promise<void> {
  const session = host.createMcpSession();
  const transport = new StdioServerTransport();
  const ended = new Promise<void>((resolve) => {
    transport.onclose = resolve;
    process.stdin.once('end', resolve);
    process.stdin.once('close', resolve);
  });
  await session.server.connect(transport);
  await ended;
  session.dispose();
}
