import type { Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { connectRaw, statusOf } from '../../test/support/raw-http.js';
import { createHttpServer } from './http-server.js';
import { listenOnLoopback } from './listen-on-loopback.js';

/*
 * The connection timeouts every vmark server shares. Short ones here; the assertions are
 * about what the server does (answers 408, closes), never about how fast: a test that waits
 * for a close that never comes fails on vitest's own timeout.
 */

let server: Server;
let port: number;

afterEach(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** A server that reads each body, then answers after `delayMs`. */
async function start(delayMs = 0): Promise<void> {
  server = createHttpServer({ headersMs: 300, requestMs: 600, keepAliveMs: 200 });
  server.on('request', (request, response) => {
    request.resume();
    request.on('end', () => setTimeout(() => response.end('ok'), delayMs));
  });
  port = await listenOnLoopback(server, 0);
}

/** Sends `piece` every 50 ms until the server closes the connection. */
function trickle(send: (data: string) => Promise<void>, piece: string, closed: Promise<string>): void {
  const timer = setInterval(() => void send(piece), 50);
  void closed.then(() => clearInterval(timer));
}

describe('createHttpServer', () => {
  it('closes a connection that never sends anything', async () => {
    await start();
    const raw = await connectRaw(port);
    expect(statusOf(await raw.closed)).toBe(408);
  });

  it('closes a connection whose headers come a line at a time and never end', async () => {
    await start();
    const raw = await connectRaw(port);
    await raw.send('POST / HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    trickle(raw.send, 'X-Slow: 1\r\n', raw.closed);
    expect(statusOf(await raw.closed)).toBe(408);
  });

  it('closes a connection whose body trickles in', async () => {
    await start();
    const raw = await connectRaw(port);
    await raw.send('POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100000\r\n\r\n');
    trickle(raw.send, 'x', raw.closed);
    expect(statusOf(await raw.closed)).toBe(408);
  });

  it('closes a kept-alive connection that sends no second request', async () => {
    await start();
    const raw = await connectRaw(port);
    await raw.send('GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n');
    const response = await raw.closed;
    expect(statusOf(response)).toBe(200);
    expect(response).toMatch(/\r\nKeep-Alive: timeout=\d+\r\n/i);
  });

  it('lets a response take longer than the request timeout', async () => {
    await start(1000);
    const answer = await fetch(`http://127.0.0.1:${port}/`, { method: 'POST', body: 'hello' });
    expect(answer.status).toBe(200);
    expect(await answer.text()).toBe('ok');
  });
});
