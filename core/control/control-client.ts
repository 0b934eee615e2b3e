import http from 'node:http';
import type { RunningHost } from './host-file.js';

export interface ControlResponse {
  readonly status: number;
  /** The decoded JSON body. */
  readonly body: unknown;
}

/** Past this a reply is not what a control route sends (a whole script is a few megabytes at most). */
const MAX_REPLY_BYTES = 64 * 1024 * 1024;

/**
 * One request to a running host's control channel. Rejects when the host does
 * not answer (it may have died since its host file was read) or answers with
 * something other than JSON. Error messages never contain the token.
 */
export function controlRequest(
  host: Pick<RunningHost, 'pid' | 'port' | 'token'>,
  method: 'GET' | 'POST',
  path: string,
  timeoutMs = 10_000,
): Promise<ControlResponse> {
  return new Promise((resolve, reject) => {
    // Set before destroying the request, so that the 'error' event reports why.
    let reason: Error | undefined;
    const stop = (error: Error) => {
      reason = error;
      request.destroy(error);
    };
    const request = http.request(
      {
        host: '127.0.0.1',
        port: host.port,
        method,
        path,
        headers: { authorization: `Bearer ${host.token}`, accept: 'application/json' },
        agent: false,
        timeout: timeoutMs,
      },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_REPLY_BYTES) {
            stop(new Error(`vmark host ${host.pid} sent an oversized reply`));
            return;
          }
          chunks.push(chunk);
        });
        response.on('error', reject);
        response.on('end', () => {
          try {
            const body: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
            resolve({ status: response.statusCode ?? 0, body });
          } catch {
            reject(
              new Error(`vmark host ${host.pid} answered ${method} ${path} with something other than JSON`),
            );
          }
        });
      },
    );
    request.on('timeout', () =>
      stop(new Error(`vmark host ${host.pid} did not answer within ${timeoutMs} ms`)),
    );
    request.on('error', (error) =>
      reject(reason ?? new Error(`vmark host ${host.pid} could not be reached: ${error.message}`)),
    );
    request.end();
  });
}

/** The `message` of a host's error reply, for a person; a reply without one is "unexpected reply". */
export function replyMessage(body: unknown): string {
  const message = (body as { message?: unknown } | null)?.message;
  return typeof message === 'string' ? message : 'unexpected reply';
}
