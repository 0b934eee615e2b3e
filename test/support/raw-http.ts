import { connect, type Socket } from 'node:net';

/**
 * A bare TCP connection to a loopback HTTP server, for what no HTTP client sends: nothing at
 * all, headers a line at a time, a body that stops half way. Records what the server answers
 * and whether it closed the connection.
 */
export interface RawConnection {
  readonly socket: Socket;
  /** Writes unless the server has already closed the connection; resolves once handed to the system. */
  send(this: void, data: string | Buffer): Promise<void>;
  /** Resolves with what arrived once the server's status line and headers are in. */
  head(): Promise<string>;
  /** Resolves with everything received once the server has closed the connection. */
  readonly closed: Promise<string>;
}

export function connectRaw(port: number): Promise<RawConnection> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let received = '';
    const waiting: Array<() => void> = [];
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString('latin1');
      for (const wake of waiting.splice(0)) wake();
    });
    // The server may reset a connection whose client still sends: that is a close too.
    socket.on('error', () => undefined);
    const closed = new Promise<string>((done) => socket.once('close', () => done(received)));
    void closed.then(() => {
      for (const wake of waiting.splice(0)) wake();
    });
    const head = async (): Promise<string> => {
      while (!received.includes('\r\n\r\n')) {
        if (socket.destroyed) throw new Error(`closed before a response: ${JSON.stringify(received)}`);
        await new Promise<void>((wake) => waiting.push(wake));
      }
      return received;
    };
    socket.once('connect', () =>
      resolve({
        socket,
        send: (data) =>
          new Promise<void>((sent) => {
            if (socket.destroyed || !socket.writable) return sent();
            socket.write(data, () => sent());
          }),
        head,
        closed,
      }),
    );
    socket.once('error', reject);
  });
}

/** `HTTP/1.1 413 Payload Too Large` → 413. */
export function statusOf(response: string): number {
  return Number(/^HTTP\/1\.1 (\d{3})/.exec(response)?.[1] ?? 0);
}
