import fs from 'node:fs/promises';
import type http from 'node:http';
import { createHttpServer } from '../net/http-server.js';
import { listenOnLoopback } from '../net/listen-on-loopback.js';
import { VMARK_VERSION } from '../tokens/version.js';
import { bearerMatches, newBearerToken } from './bearer-token.js';
import { type ControlHandlers, type ControlReply, failure, routeControlRequest } from './control-routes.js';
import { type ServeAnnouncement, writeHostFile } from './host-file.js';

export interface ControlServerOptions {
  /** `VMARK_HOME`: the host file goes to `<home>/hosts/<pid>.json`. */
  readonly home: string;
  readonly version?: string;
  /** `vmark serve` announces its editor and MCP endpoint, so `vmark mcp` and `vmark app` can attach. */
  readonly serve?: ServeAnnouncement;
}

export interface ControlServer {
  readonly port: number;
  /** Where this host announced itself; removed by `close`. */
  readonly hostFile: string;
  close(): Promise<void>;
}

/**
 * The control channel: lets a person at a terminal reach this running host
 * (`vmark approvals …`). JSON over HTTP on 127.0.0.1, every request carrying
 * the random bearer token written to the host file, which only its owner can read.
 */
export async function startControlServer(
  handlers: ControlHandlers,
  options: ControlServerOptions,
): Promise<ControlServer> {
  const token = newBearerToken();
  let port = 0;
  const server = createHttpServer();
  server.on('request', (request: http.IncomingMessage, response: http.ServerResponse) => {
    // Nothing is read from a body: draining it lets the connection finish cleanly.
    request.resume();
    send(response, answer(request, token, port, handlers));
  });
  port = await listenOnLoopback(server, 0);

  const stop = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  let hostFile: string;
  try {
    hostFile = await writeHostFile(options.home, {
      pid: process.pid,
      port,
      token,
      version: options.version ?? VMARK_VERSION,
      startedAt: new Date().toISOString(),
      ...(options.serve ? { serve: options.serve } : {}),
    });
  } catch (error) {
    await stop();
    throw error;
  }

  let closing: Promise<void> | undefined;
  return {
    port,
    hostFile,
    close: () => {
      closing ??= (async () => {
        // The file first: a terminal must not find a host that no longer answers.
        await fs.rm(hostFile, { force: true });
        await stop();
      })();
      return closing;
    },
  };
}

function answer(
  request: http.IncomingMessage,
  token: string,
  port: number,
  handlers: ControlHandlers,
): ControlReply {
  if (!bearerMatches(request.headers.authorization, token)) {
    return failure(401, 'UNAUTHORIZED', 'A valid bearer token is required');
  }
  // Refuses a page that rebound its own DNS name to 127.0.0.1 (defence in depth: it lacks the token too).
  const hostHeader = request.headers.host ?? '';
  if (hostHeader !== `127.0.0.1:${port}` && hostHeader !== `localhost:${port}`) {
    return failure(403, 'FORBIDDEN', 'Unexpected Host header');
  }
  const pathname = new URL(request.url ?? '/', 'http://127.0.0.1').pathname;
  return routeControlRequest(request.method ?? 'GET', pathname, handlers);
}

function send(response: http.ServerResponse, reply: ControlReply): void {
  const body = JSON.stringify(reply.body);
  response.writeHead(reply.status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    'cache-control': 'no-store',
  });
  response.end(body);
}
