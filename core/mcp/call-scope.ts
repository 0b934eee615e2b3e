import { AsyncLocalStorage } from 'node:async_hooks';
import type { RequestId } from '@modelcontextprotocol/sdk/types.js';
import type { CallProgress } from './call-progress.js';

/**
 * One tool call while it runs, for the host's own code that runs on its behalf: a document
 * store write reports its stages as the call's progress, and a message logged during the call
 * rides the call's own response stream (over HTTP, a client need not hold a notification stream
 * open). Found through the async context the call's handler runs in, so no service needs the
 * call handed down to it.
 */
export class CallScope {
  #answered = false;

  constructor(
    readonly connectionId: string,
    readonly requestId: RequestId,
    readonly progress: CallProgress,
  ) {}

  /** Whether the call has answered; work it started may still run, and must not speak on its stream. */
  get answered(): boolean {
    return this.#answered;
  }

  answer(): void {
    this.#answered = true;
    this.progress.close();
  }
}

const scopes = new AsyncLocalStorage<CallScope>();

/** Runs a tool call's handler within its scope. */
export function runInCall<T>(scope: CallScope, handler: () => T): T {
  return scopes.run(scope, handler);
}

/** The tool call the current code runs on behalf of, while it has not answered. */
export function currentCall(): CallScope | undefined {
  const scope = scopes.getStore();
  return scope?.answered === false ? scope : undefined;
}
