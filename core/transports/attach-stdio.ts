import { realpath } from 'node:fs/promises';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ClientCredentials } from '../principals/client-credentials.js';
import { VMARK_VERSION } from '../tokens/version.js';
import { processAlive } from '../vault/process-owner.js';
import { findServeHost, type ServeHost } from './serve-host-finder.js';
import { type ProxyEnd, proxyStdio } from './stdio-proxy.js';

export interface AttachRequest {
  /** `VMARK_HOME`: only a host of the same app-data folder is attached to. */
  readonly home: string;
  /** `--workspace`: attached only when the running host was started on this folder. */
  readonly workspace?: string;
  /** `--open`: opened in the running host (a tab the person sees), as a private host would open them. */
  readonly open?: readonly string[];
  /** `VMARK_MCP_TOKEN`, when the client's config sets one. */
  readonly credential?: string;
  readonly log: (line: string) => void;
}

/** A file named with `--open` that the running host refused; nothing was proxied. */
export class AttachRefused extends Error {}

/**
 * `vmark mcp` on stdio when a `vmark serve` of the same `VMARK_HOME` runs:
 * relays this client to that host, so its edits land in the documents the
 * person has open (ADR 18). Null when there is nothing to attach to, and the
 * caller serves a private host as before.
 */
export async function attachStdio(request: AttachRequest): Promise<ProxyEnd | null> {
  const host = await findServeHost(request.home);
  if (host === null) return null;
  if (request.workspace !== undefined) {
    // A folder that does not resolve is left to the private host, which reports it as usual.
    const folder = await realpath(path.resolve(request.workspace)).catch(() => null);
    if (folder === null) return null;
    if (!host.workspaceRoots.includes(folder)) {
      request.log(
        `vmark: the running editor (pid ${host.pid}) was not started on ${folder}; serving a private host`,
      );
      return null;
    }
  }
  // An unknown or revoked credential names nobody on stdio; through HTTP it would be refused
  // outright, so it is replaced by the host's token and the client stays anonymous, as it would be.
  const credentials = new ClientCredentials(request.home);
  const bearer =
    request.credential !== undefined && credentials.identify(request.credential) !== null
      ? request.credential
      : host.token;
  if (request.open?.length) await openFiles(host, bearer, request.open);
  request.log(`vmark: attached to the running editor (pid ${host.pid})`);
  return proxyStdio({
    url: host.mcpUrl,
    bearer,
    hostAlive: () => processAlive(host.pid),
    input: process.stdin,
    output: process.stdout,
    log: request.log,
  });
}

/** Opens each file through the host's own `workspace.open`, so its scope rules apply unchanged. */
async function openFiles(host: ServeHost, bearer: string, files: readonly string[]): Promise<void> {
  const client = new Client({ name: 'vmark-mcp-attach', version: VMARK_VERSION });
  const transport = new StreamableHTTPClientTransport(new URL(host.mcpUrl), {
    requestInit: { headers: { Authorization: `Bearer ${bearer}` } },
  });
  await client.connect(transport);
  try {
    for (const file of files) {
      const filePath = path.resolve(file);
      const result = (await client.callTool({
        name: 'workspace',
        arguments: { action: 'open', filePath },
      })) as CallToolResult;
      if (result.isError === true) {
        const text = result.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
        throw new AttachRefused(`the running editor (pid ${host.pid}) refused to open ${filePath}: ${text}`);
      }
    }
  } finally {
    await transport.terminateSession().catch(() => undefined);
    await client.close();
  }
}
