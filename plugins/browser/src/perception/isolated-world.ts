/**
 * Where vmark's own scripts run in a page (DESIGN §9): an isolated world (CDP
 * `Page.createIsolatedWorld`) that shares the DOM with the page but none of its JavaScript —
 * the page can neither see nor replace what runs there, and its globals (a poisoned
 * `Array.prototype`, a fake `document.querySelector`) do not reach it. One world per frame
 * document, kept while the document lives, so that state kept in it (refs) lasts as long as
 * the page generation.
 */
import type { CDPSession, Page } from 'playwright-core';

/** A function's source, run as `(fn)(arg)` in the world; its result must be JSON-serializable. */
export type WorldFunction = string;

export interface WorldError {
  readonly kind: 'world-error';
  readonly message: string;
}

const WORLD_NAME = 'vmark';

export class IsolatedWorld {
  #session: Promise<CDPSession> | undefined;
  /** frameId → execution context of the world in that frame's current document. */
  readonly #contexts = new Map<string, Promise<number>>();
  /** execution context → its frame, to forget a world when its document goes. */
  readonly #frames = new Map<number, string>();

  constructor(private readonly page: Page) {}

  /** The CDP session of the page's main target (shared by every same-process frame). */
  session(): Promise<CDPSession> {
    this.#session ??= this.page
      .context()
      .newCDPSession(this.page)
      .then(async (session) => {
        // A new document (navigation, reload) destroys its worlds: forget them.
        session.on('Runtime.executionContextsCleared', () => {
          this.#contexts.clear();
          this.#frames.clear();
        });
        session.on('Runtime.executionContextDestroyed', ({ executionContextId }) => {
          const frame = this.#frames.get(executionContextId);
          this.#frames.delete(executionContextId);
          if (frame !== undefined) this.#contexts.delete(frame);
        });
        session.on('Page.frameNavigated', ({ frame }) => this.#contexts.delete(frame.id));
        await session.send('Page.enable');
        await session.send('Runtime.enable');
        return session;
      });
    return this.#session;
  }

  async mainFrameId(): Promise<string> {
    const session = await this.session();
    const { frameTree } = await session.send('Page.getFrameTree');
    return frameTree.frame.id;
  }

  /**
   * Runs `fn(arg)` in the world of `frameId` (the main frame when omitted) and returns its
   * value. A throw in the page's world never happens here; a throw of `fn` is rethrown.
   */
  async evaluate<T>(fn: WorldFunction, arg?: unknown, frameId?: string): Promise<T> {
    const session = await this.session();
    const frame = frameId ?? (await this.mainFrameId());
    const contextId = await this.#context(session, frame);
    const result = await session.send('Runtime.callFunctionOn', {
      functionDeclaration: fn,
      executionContextId: contextId,
      arguments: arg === undefined ? [] : [{ value: arg }],
      returnByValue: true,
      awaitPromise: true,
    });
    if (result.exceptionDetails) {
      const detail = result.exceptionDetails;
      throw new Error(detail.exception?.description?.split('\n')[0] ?? detail.text);
    }
    return result.result.value as T;
  }

  /** Stops whatever runs in the page's main thread now (a script that never ends). */
  async terminate(): Promise<void> {
    const session = await this.session();
    await session.send('Runtime.terminateExecution').catch(() => undefined);
  }

  #context(session: CDPSession, frameId: string): Promise<number> {
    let context = this.#contexts.get(frameId);
    if (!context) {
      context = session
        .send('Page.createIsolatedWorld', { frameId, worldName: WORLD_NAME, grantUniveralAccess: false })
        .then((world) => {
          this.#frames.set(world.executionContextId, frameId);
          return world.executionContextId;
        });
      this.#contexts.set(frameId, context);
      context.catch(() => this.#contexts.delete(frameId));
    }
    return context;
  }
}
