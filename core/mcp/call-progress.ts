import type { ProgressNotificationParams, ProgressToken } from '@modelcontextprotocol/sdk/types.js';

/** At most this many notifications a second for one call. */
const MIN_INTERVAL_MS = 100;

/**
 * The `progress` of one tool call (`ToolCall.progress`): `notifications/progress` for the client's
 * `progressToken`, or nothing when it gave none. Reports that do not rise are dropped (MCP wants
 * each notification's progress above the last). The first report goes at once; later ones at most
 * every 100 ms, the latest pending one winning. Once the call has answered (`close`), nothing more
 * is sent, a pending report included.
 */
export class CallProgress {
  readonly #token: ProgressToken | undefined;
  readonly #send: (params: ProgressNotificationParams) => Promise<void>;
  /** The highest `done` accepted, sent or pending. */
  #highest = -Infinity;
  #lastSentAt = -Infinity;
  #pending: ProgressNotificationParams | undefined;
  #timer: NodeJS.Timeout | undefined;
  #closed = false;

  constructor(
    token: ProgressToken | undefined,
    send: (params: ProgressNotificationParams) => Promise<void>,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.#token = token;
    this.#send = send;
  }

  /** Whether a report may still reach the client: it gave a token, and the call has not answered. */
  get reporting(): boolean {
    return this.#token !== undefined && !this.#closed;
  }

  /** The handler's `progress`: never throws, whatever it is given. */
  readonly report = (done: number, total?: number, message?: string): void => {
    if (this.#token === undefined || this.#closed) return;
    if (!Number.isFinite(done) || done <= this.#highest) return;
    this.#highest = done;
    const params: ProgressNotificationParams = { progressToken: this.#token, progress: done };
    if (total !== undefined && Number.isFinite(total)) params.total = total;
    if (typeof message === 'string') params.message = message;
    const wait = this.#lastSentAt + MIN_INTERVAL_MS - this.now();
    if (wait <= 0 && this.#timer === undefined) return this.#emit(params);
    this.#pending = params;
    if (this.#timer === undefined) {
      this.#timer = setTimeout(
        () => {
          this.#timer = undefined;
          const pending = this.#pending;
          this.#pending = undefined;
          if (pending !== undefined && !this.#closed) this.#emit(pending);
        },
        Math.max(0, wait),
      );
      this.#timer.unref();
    }
  };

  /** The call has answered: drops what is pending and sends nothing more. */
  close(): void {
    this.#closed = true;
    this.#pending = undefined;
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #emit(params: ProgressNotificationParams): void {
    this.#lastSentAt = this.now();
    // A client gone meanwhile is the transport's to report; progress never fails a call.
    this.#send(params).catch(() => undefined);
  }
}
