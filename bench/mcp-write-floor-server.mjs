#!/usr/bin/env node
/**
 * The floor of bench/editor-latency.mjs's MCP write row: what any MCP host pays to bring a
 * client's `document.write` of a large text to an editor page. The MCP SDK's own `McpServer`
 * over its `StreamableHTTPServerTransport` (one per session, the body read by the SDK, its
 * default SSE answers) with one tool, `document`, whose `write` keeps the text, checks the
 * revision and forwards the change of the text's first line (the bench changes nothing else)
 * as a `doc.updates` message to the pages connected to `/ws`. No diff, no disk, no hooks:
 * every host has to receive, parse and validate the call, and send a change to its page.
 *
 *   node bench/mcp-write-floor-server.mjs FILE   → prints {"mcpUrl","wsUrl","token"} as its first line
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import { createServer } from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { WebSocketServer } from 'ws';
import { z } from 'zod';
import { sdkSessions } from './sdk-http-sessions.mjs';

const TAB_ID = 'tab-1';
const token = randomBytes(24).toString('base64url');
let text = await fs.readFile(process.argv[2], 'utf8');
let revision = 'rev-00000000';
const pages = new Set();

const json = (data) => ({ content: [{ type: 'text', text: JSON.stringify(data) }], structuredContent: data });
const firstLineEnd = (s) => (s.indexOf('\n') === -1 ? s.length : s.indexOf('\n'));

function serverForSession() {
  const server = new McpServer({ name: 'write-floor', version: '1.0.0' });
  server.registerTool('session', { inputSchema: { action: z.enum(['get_state']) } }, async () =>
    json({ windows: [{ tabs: [{ id: TAB_ID, filePath: '/large.md', revision }] }] }),
  );
  server.registerTool(
    'document',
    {
      inputSchema: {
        action: z.enum(['write']),
        tabId: z.string(),
        content: z.string(),
        expected_revision: z.string().optional(),
      },
    },
    async ({ tabId, content, expected_revision }) => {
      if (tabId !== TAB_ID) return { isError: true, content: [{ type: 'text', text: 'INVALID_TAB' }] };
      if (expected_revision !== undefined && expected_revision !== revision)
        return { isError: true, content: [{ type: 'text', text: 'STALE' }] };
      const change = { from: 0, to: firstLineEnd(text), insert: content.slice(0, firstLineEnd(content)) };
      text = content;
      revision = `rev-${randomBytes(6).toString('base64url').slice(0, 8)}`;
      const message = JSON.stringify({ type: 'doc.updates', change });
      for (const page of pages) page.send(message);
      return json({ revision, saved: false });
    },
  );
  return server;
}

const http = createServer(sdkSessions(token, serverForSession));
const webSockets = new WebSocketServer({ server: http, path: '/ws' });
webSockets.on('connection', (socket) => {
  pages.add(socket);
  socket.on('close', () => pages.delete(socket));
});
http.listen(0, '127.0.0.1', () => {
  const base = `127.0.0.1:${http.address().port}`;
  process.stdout.write(
    `${JSON.stringify({ mcpUrl: `http://${base}/mcp`, wsUrl: `ws://${base}/ws`, token })}\n`,
  );
});
process.on('SIGTERM', () => process.exit(0));
