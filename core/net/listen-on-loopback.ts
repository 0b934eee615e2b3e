import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The port cannot be had (taken by another program, or one this user may not open): a
 * person's mistake or the machine's state, told in one sentence, never with a stack.
 */
export class ListenRefused extends Error {
  override readonly name = 'ListenRefused';

  constructor(
    readonly port: number,
    readonly code: string,
  ) {
    super(
      code === 'EADDRINUSE'
        ? `port ${port} on 127.0.0.1 is in use; choose another with --port (0 picks a free one)`
        : `port ${port} on 127.0.0.1 may not be opened by this user (${code}); choose another with --port`,
    );
  }
}

/**
 * Listens on 127.0.0.1 only (every vmark server is for this machine's user) and resolves
 * with the port, which is the one asked for or, for 0, one the system chose.
 * @throws ListenRefused when the port is in use or not this user's to open.
 */
export function listenOnLoopback(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const fail = (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'EADDRINUSE' || error.code === 'EACCES' ? new ListenRefused(port, error.code) : error,
      );
    server.once('error', fail);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', fail);
      resolve((server.address() as AddressInfo).port);
    });
  });
}
