#!/usr/bin/env node
/**
 * The peer of bench/mcp-load.mjs: the MCP SDK's own `McpServer` over its
 * `StreamableHTTPServerTransport`, one server per session as the SDK's examples do it, with
 * the four calls of the load (`workspace.open`, `document.read`, `document.write`,
 * `session.get_state`) doing the same file reads and atomic, fsynced writes and nothing else. What the
 * SDK and Node keep per call by themselves.
 *
 *   node bench/mcp-load-peer.mjs WORKSPACE   → prints {"url","token"} as its first line
 */
import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import { createServer } from 'node:http';
import path from 'node:path';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { sdkSessions } from './sdk-http-sessions.mjs';

const root = path.resolve(process.argv[2] ?? '.');
const token = randomBytes(24).toString('base64url');
/** tabId → file, shared by every session as one host's tabs are. */
const tabs = new Map();
const revisions = new Map();
const newRevision = () => `rev-${randomBytes(6).toString('base64url').slice(0, 8)}`;

const json = (data) => ({ content: [{ type: 'text', text: JSON.stringify(data) }], structuredContent: data });
const refuse = (message) => ({ isError: true, content: [{ type: 'text', text: message }] });

function inside(file) {
  const resolved = path.resolve(file);
  return resolved.startsWith(root + path.sep) ? resolved : null;
}

function serverForSession() {
  const server = new McpServer({ name: 'load-peer', version: '1.0.0' });
  server.registerTool(
    'workspace',
    { inputSchema: { action: z.enum(['open']), filePath: z.string() } },
    async ({ filePath }) => {
      const file = inside(filePath);
      if (!file) return refuse('INVALID_PATH');
      let tabId = [...tabs].find(([, f]) => f === file)?.[0];
      if (!tabId) {
        await fs.stat(file);
        tabId = `tab-${tabs.size + 1}`;
        tabs.set(tabId, file);
        revisions.set(file, newRevision());
      }
      return json({ tabId });
    },
  );
  server.registerTool(
    'document',
    {
      inputSchema: {
        action: z.enum(['read', 'write']),
        tabId: z.string(),
        content: z.string().optional(),
        expected_revision: z.string().optional(),
      },
    },
    async ({ action, tabId, content, expected_revision }) => {
      const file = tabs.get(tabId);
      if (!file) return refuse('INVALID_TAB');
      if (action === 'read')
        return json({ content: await fs.readFile(file, 'utf8'), revision: revisions.get(file) });
      if (expected_revision !== undefined && expected_revision !== revisions.get(file))
        return refuse('STALE');
      // Atomic and durable, as vmark saves: temp file, fsync, rename.
      const temp = `${file}.${randomUUID()}.tmp`;
      const handle = await fs.open(temp, 'wx');
      try {
        await handle.writeFile(content ?? '');
        await handle.sync();
      } finally {
        await handle.close();
      }
      await fs.rename(temp, file);
      const revision = newRevision();
      revisions.set(file, revision);
      return json({ revision, saved: true });
    },
  );
  server.registerTool('session', { inputSchema: { action: z.enum(['get_state']) } }, async () =>
    json({ tabs: [...tabs].map(([id, filePath]) => ({ id, filePath, revision: revisions.get(filePath) })) }),
  );
  return server;
}

const http = createServer(sdkSessions(token, serverForSession));
http.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${http.address().port}/mcp`, token })}\n`);
});
process.on('SIGTERM', () => process.exit(0));
