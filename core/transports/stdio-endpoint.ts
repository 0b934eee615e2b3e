import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Host } from '../composition/host.js';
import { LineChunks } from './line-chunks.js';
import { MAX_MESSAGE_BYTES } from '../mcp/message-limits.js';

/** Serves MCP on stdin/stdout until the client closes stdin. Resolves when the session has ended. */
export async function serveStdio(host: Host): Promise<void> {
  // The client's MCP config hands its credential to the process it starts.
  const session = host.createMcpSession(process.env.VMARK_MCP_TOKEN);
  const input = process.stdin.pipe(new LineChunks(MAX_MESSAGE_BYTES));
  const transport = new StdioServerTransport(input, process.stdout, { maxBufferSize: MAX_MESSAGE_BYTES });
  // stdout is the protocol: problems go to stderr, where MCP clients show server logs.
  transport.onerror = (error) => process.stderr.write(`vmark: MCP stdio: ${error.message}\n`);
  const ended = new Promise<void>((resolve) => {
    transport.onclose = resolve;
    process.stdin.once('end', resolve);
    process.stdin.once('close', resolve);
  });
  await session.server.connect(transport);
  await ended;
  session.dispose();
}
