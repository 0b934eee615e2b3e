import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/**
 * Who may talk to the UI server: a request to 127.0.0.1 or localhost on our
 * port (so a page that rebinds its own DNS name to 127.0.0.1 is refused), from
 * no origin or our own (so another site's page cannot open our WebSocket), and
 * carrying the per-launch token in `?token=` (a browser cannot put a header on
 * a WebSocket, and the page's own URL is where the person got the token from).
 */
export class RequestGuard {
  readonly #hosts: readonly string[];
  readonly #origins: readonly string[];
  readonly #token: Buffer;

  constructor(port: number, token: string) {
    this.#hosts = [`127.0.0.1:${port}`, `localhost:${port}`];
    this.#origins = this.#hosts.map((host) => `http://${host}`);
    this.#token = digest(token);
  }

  /** Why the request is refused (an HTTP status and a reason), or null when it may go on. */
  refusal(request: IncomingMessage, url: URL): { status: 401 | 403; reason: string } | null {
    if (!this.#hosts.includes(request.headers.host ?? ''))
      return { status: 403, reason: 'Unexpected Host header' };
    const origin = request.headers.origin;
    if (origin !== undefined && !this.#origins.includes(origin)) {
      return { status: 403, reason: 'Unexpected Origin header' };
    }
    const given = url.searchParams.get('token');
    // Both sides hashed: equal lengths for timingSafeEqual, and neither the token nor its length leaks.
    if (given === null || !timingSafeEqual(digest(given), this.#token)) {
      return { status: 401, reason: 'Open the URL vmark serve printed: it carries the token' };
    }
    return null;
  }

  /** The origins a page of ours may connect from, for its Content-Security-Policy. */
  get webSocketOrigins(): readonly string[] {
    return this.#hosts.map((host) => `ws://${host}`);
  }
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}
