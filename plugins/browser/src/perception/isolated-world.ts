/**
 * Where vmark's own scripts run in a page (DESIGN §9): an isolated world (CDP
 * `Page.createIsolatedWorld`) that shares the DOM with the page but none of its JavaScript —
 * the page can neither see nor replace what runs there, and its globals (a poisoned
 * `Array.prototype`, a fake `document.querySelector`) do not reach it. One world per frame
 * document, kept while the document lives, so that state kept in it (refs) lasts as long as
 * the page generation. Each new world gets vmark's library (world/world-library.ts) first.
 *
 * One instance serves one CDP target: the page's (its main frame and the frames that share
 * its process), or an out-of-process iframe's (page-frames.ts opens those).
 */
import type { CDPSession, Page } from 'playwright-core';
import type { CallArgument, CallResult, RemoteObject } from './cdp-types.js';
import { libraryCall, WORLD_LIBRARY_SOURCE, type WorldLibrary } from './world/world-library.js';

/** A function's source, run as `(fn)(arg)` in the world; its result must be JSON-serializable. */
export type WorldFunction = string;

export interface WorldError {
  readonly kind: 'world-error';
  readonly message: string;
}

const WORLD_NAME = 'vmark';
/** What CDP says when the document of a cached world went away between two calls. */
const LOST_CONTEXT = /Cannot find context|Execution context was destroyed|Cannot find execution context/i;

export class IsolatedWorld {
  #session: Promise<CDPSession> | undefined;
  /** The root frame's id: it stays while the target lives (its documents come and go). */
  #mainFrame: Promise<string> | undefined;
  /** frameId → execution context of the world in that frame's current document. */
  readonly #contexts = new Map<string, Promise<number>>();
  /** execution context → its frame, to forget a world when its document goes. */
  readonly #frames = new Map<number, string>();

  constructor(
    private readonly page: Page,
    private readonly openSession: () => Promise<CDPSession> = () => page.context().newCDPSession(page),
  ) {}

  /** The CDP session of this world's target (shared by every same-process frame). */
  session(): Promise<CDPSession> {
    this.#session ??= this.openSession().then(async (session) => {
      // A new document (navigation, reload) destroys its worlds: forget them.
      session.on('Runtime.executionContextsCleared', () => {
        this.#contexts.clear();
        this.#frames.clear();
      });
      session.on('Runtime.executionContextDestroyed', ({ executionContextId }) =>
        this.#forget(executionContextId),
      );
      session.on('Page.frameNavigated', ({ frame }) => {
        this.#contexts.delete(frame.id);
        if (frame.parentId === undefined) this.#mainFrame = Promise.resolve(frame.id);
      });
      await session.send('Page.enable');
      await session.send('Runtime.enable');
      return session;
    });
    return this.#session;
  }

  /** The frame at the root of this world's target: the page's main frame, or the iframe's. */
  mainFrameId(): Promise<string> {
    this.#mainFrame ??= this.session().then(async (session) => {
      const { frameTree } = await session.send('Page.getFrameTree');
      return frameTree.frame.id;
    });
    this.#mainFrame.catch(() => (this.#mainFrame = undefined));
    return this.#mainFrame;
  }

  /**
   * Runs `fn(arg)` in the world of `frameId` (the main frame when omitted) and returns its
   * value. A throw in the page's world never happens here; a throw of `fn` is rethrown.
   */
  async evaluate<T>(fn: WorldFunction, arg?: unknown, frameId?: string): Promise<T> {
    const result = await this.call(frameId, fn, arg === undefined ? [] : [{ value: arg }]);
    return result.value as T;
  }

  /** Calls `module.method(...values, ...objects)` of vmark's library in the frame's world. */
  async library<T>(
    frameId: string | undefined,
    module: keyof WorldLibrary,
    method: string,
    values: readonly unknown[],
    objectIds: readonly string[] = [],
  ): Promise<T> {
    const args: CallArgument[] = [
      ...values.map((value) => ({ value })),
      ...objectIds.map((objectId) => ({ objectId })),
    ];
    const result = await this.call(frameId, libraryCall(module, method), args);
    return result.value as T;
  }

  /**
   * `Runtime.callFunctionOn` in the frame's world. By value, unless `deep` (CDP's deep
   * serialization, which names each DOM node by its backend id) or `reference` (a remote
   * object); either keeps the result in `objectGroup` until released. A world whose document
   * went away since it was made is made again, once.
   */
  async call(
    frameId: string | undefined,
    declaration: string,
    args: readonly CallArgument[],
    options: { readonly deep?: boolean; readonly reference?: boolean; readonly objectGroup?: string } = {},
  ): Promise<RemoteObject> {
    const session = await this.session();
    const frame = frameId ?? (await this.mainFrameId());
    const once = async () => {
      const executionContextId = await this.contextId(frame);
      return session.send('Runtime.callFunctionOn', {
        functionDeclaration: declaration,
        executionContextId,
        arguments: [...args],
        awaitPromise: true,
        ...(options.deep ? { serializationOptions: { serialization: 'deep', maxDepth: 2 } } : {}),
        ...(options.deep || options.reference
          ? { objectGroup: options.objectGroup }
          : { returnByValue: true }),
      });
    };
    let result: CallResult;
    try {
      result = await once();
    } catch (error) {
      if (!LOST_CONTEXT.test(error instanceof Error ? error.message : String(error))) throw error;
      this.#contexts.delete(frame);
      result = await once();
    }
    if (result.exceptionDetails) {
      const detail = result.exceptionDetails;
      throw new Error(detail.exception?.description?.split('\n')[0] ?? detail.text);
    }
    return result.result;
  }

  /** Stops whatever runs in the page's main thread now (a script that never ends). */
  async terminate(): Promise<void> {
    const session = await this.session();
    await session.send('Runtime.terminateExecution').catch(() => undefined);
  }

  /** The world's execution context in the frame's current document, made (with the library) if needed. */
  async contextId(frameId: string): Promise<number> {
    const session = await this.session();
    let context = this.#contexts.get(frameId);
    if (!context) {
      context = session
        .send('Page.createIsolatedWorld', { frameId, worldName: WORLD_NAME, grantUniveralAccess: false })
        .then(async ({ executionContextId }) => {
          this.#frames.set(executionContextId, frameId);
          const installed = await session.send('Runtime.evaluate', {
            expression: WORLD_LIBRARY_SOURCE,
            contextId: executionContextId,
            returnByValue: true,
          });
          if (installed.exceptionDetails)
            throw new Error(`vmark's world library failed: ${installed.exceptionDetails.text}`);
          return executionContextId;
        });
      this.#contexts.set(frameId, context);
      context.catch(() => {
        if (this.#contexts.get(frameId) === context) this.#contexts.delete(frameId);
      });
    }
    return context;
  }

  #forget(executionContextId: number): void {
    const frame = this.#frames.get(executionContextId);
    this.#frames.delete(executionContextId);
    if (frame === undefined) return;
    void this.#contexts.get(frame)?.then((id) => {
      if (id === executionContextId) this.#contexts.delete(frame);
    });
  }
}
