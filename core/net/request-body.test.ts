import { createServer, type IncomingMessage, type Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { connectRaw } from '../../test/support/raw-http.js';
import { listenOnLoopback } from './listen-on-loopback.js';
import { type BodyRead, readRequestBody } from './request-body.js';

let server: Server;
let port: number;
/** What `readRequestBody` made of each request, in order. */
let reads: Array<Promise<BodyRead>>;

afterEach(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

async function start(maxBytes: number): Promise<void> {
  reads = [];
  server = createServer((request: IncomingMessage, response) => {
    const read = readRequestBody(request, maxBytes);
    reads.push(read);
    void read.then(
      (result) => response.end(result.tooLarge ? 'too large' : result.body.toString('utf8')),
      () => response.destroy(),
    );
  });
  port = await listenOnLoopback(server, 0);
}

const post = (body: string) =>
  fetch(`http://127.0.0.1:${port}/`, { method: 'POST', body }).then((r) => r.text());

describe('readRequestBody', () => {
  it('returns a body of exactly the bound, and refuses one byte more', async () => {
    await start(8);
    expect(await post('12345678')).toBe('12345678');
    expect(await post('123456789')).toBe('too large');
  });

  it('refuses a declared Content-Length over the bound before any byte of the body arrives', async () => {
    await start(8);
    const raw = await connectRaw(port);
    await raw.send('POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 9\r\n\r\n');
    expect(await (await firstRead()).read).toEqual({ tooLarge: true });
    raw.socket.destroy();
  });

  it('stops at the chunk that passes the bound of a body with no declared length', async () => {
    await start(8);
    const raw = await connectRaw(port);
    await raw.send(
      'POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n9\r\n123456789\r\n',
    );
    // The body never ends: the answer can only come from the bound.
    expect(await (await firstRead()).read).toEqual({ tooLarge: true });
    raw.socket.destroy();
  });

  it('rejects when the client hangs up in the middle of its body', async () => {
    await start(1000);
    const raw = await connectRaw(port);
    await raw.send('POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100\r\n\r\nhalf');
    const { read } = await firstRead();
    raw.socket.destroy();
    await expect(read).rejects.toThrow();
  });
});

/** The first request's read, once the server has the request (wrapped: awaiting it must not wait for the read). */
async function firstRead(): Promise<{ read: Promise<BodyRead> }> {
  while (reads.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
  return { read: reads[0]! };
}
