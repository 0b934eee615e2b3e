import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Listens on 127.0.0.1 only (every vmark server is for this machine's user) and resolves
 * with the port, which is the one asked for or, for 0, one the system chose.
 */
export function listenOnLoopback(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const fail = (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'EADDRINUSE'
          ? new Error(`port ${port} on 127.0.0.1 is in use; choose another with --port`)
          : error,
      );
    server.once('error', fail);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', fail);
      resolve((server.address() as AddressInfo).port);
    });
  });
}
