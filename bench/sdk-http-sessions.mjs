/**
 * The bench peers' MCP over Streamable HTTP as the SDK's examples do it (bench/mcp-load-peer.mjs,
 * bench/mcp-write-floor-server.mjs): one `McpServer` and `StreamableHTTPServerTransport` per
 * session, the bearer token checked, later requests' bodies read by the SDK itself.
 */
import { randomUUID } from 'node:crypto';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';

/** A `request` listener for `/mcp`; `serverForSession()` makes each new session's `McpServer`. */
export function sdkSessions(token, serverForSession) {
  const sessions = new Map();
  return async (req, res) => {
    if (req.headers.authorization !== `Bearer ${token}`) return res.writeHead(401).end();
    const id = req.headers['mcp-session-id'];
    if (typeof id === 'string') {
      const transport = sessions.get(id);
      if (!transport) return res.writeHead(404).end();
      return transport.handleRequest(req, res);
    }
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    if (!isInitializeRequest(body)) return res.writeHead(400).end();
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sessionId) => sessions.set(sessionId, transport),
    });
    const server = serverForSession();
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
      void server.close();
    };
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  };
}
