/**
 * The network guard for a remote browser (`VMARK_BROWSER_ENDPOINT`), which no proxy of ours
 * stands in front of. Two interceptions, both scoped to vmark's own browser context so that they
 * end with it — also when vmark dies without a word, since the browser's end of a connection
 * closes what that connection opened:
 *
 * - Playwright's context route pauses the first request of every chain, in every frame and
 *   worker, race-free from the first byte;
 * - a CDP `Fetch` interception on each page's target, and on every target it spawns (frames in
 *   processes of their own, workers — attached paused, watched before they run), pauses each
 *   redirect hop, which the route never sees (it intercepts only the first request of a
 *   redirect chain, by design).
 *
 * Each paused request goes on only once its host's every address has been checked; a refused
 * one fails as blocked by the client. (One interception on the whole browser target would see
 * everything, but it outlives a vmark that is killed, and then holds every request of a shared
 * browser server for ever.) Service workers are not run: their fetches would escape both.
 *
 * What it cannot check: WebSocket handshakes (CDP offers no interception of them), and a name
 * the remote browser resolves differently from this host (it connects by its own DNS).
 */
import type { BrowserContext, CDPSession, Page } from 'playwright-core';
import type { Refusal } from './guard-proxy.js';
import type { Resolver } from './resolver.js';
import { checkHost, type TargetOptions, type TargetVerdict } from './target-policy.js';

export interface RemoteGuardOptions {
  readonly resolver: Resolver;
  /** Read for every request, so a change of the setting applies at once. */
  readonly policy: () => TargetOptions;
  readonly onRefused: (refusal: Refusal) => void;
}

export interface RemoteGuard {
  /** Watches a new page's redirect hops; done before the page is given a URL. */
  watch(page: Page): Promise<void>;
}

/** The context options a guarded remote context needs. */
export const REMOTE_CONTEXT_OPTIONS = { serviceWorkers: 'block' } as const;

export async function guardRemoteContext(
  context: BrowserContext,
  options: RemoteGuardOptions,
): Promise<RemoteGuard> {
  await context.route('**/*', async (route) => {
    const target = route.request().url();
    const verdict = await verdictFor(target, options);
    if (verdict.allowed) return route.continue();
    options.onRefused({ target, reason: verdict.reason });
    return route.abort('blockedbyclient');
  });
  const pages = new WeakMap<Page, Promise<void>>();
  const watch = (page: Page): Promise<void> => {
    let watching = pages.get(page);
    if (!watching) {
      watching = watchPage(context, page, options);
      pages.set(page, watching);
    }
    return watching;
  };
  // Pages the page itself opens (popups) are watched as soon as they are seen.
  context.on('page', (page) => void watch(page).catch(() => undefined));
  return { watch };
}

type Send = (method: string, params?: Record<string, unknown>) => Promise<unknown>;
type Params = Record<string, unknown>;

const EVENTS = [
  'Fetch.requestPaused',
  'Target.attachedToTarget',
  'Target.detachedFromTarget',
  'Target.receivedMessageFromTarget',
] as const;

async function watchPage(context: BrowserContext, page: Page, options: RemoteGuardOptions): Promise<void> {
  const session: CDPSession = await context.newCDPSession(page);
  const root = new WatchedTarget((method, params) => session.send(method as 'Fetch.enable', params), options);
  for (const event of EVENTS) session.on(event, (params: Params) => root.on(event, params));
  await root.start();
}

/** Redirect chains remembered per target, to name where a refused hop's chain began. */
const MAX_CHAINS = 256;

/**
 * One target's interception, and its children's: a child (an out-of-process frame, a worker)
 * is attached paused, through its parent's session (`Target.sendMessageToTarget`), watched,
 * then let run.
 */
class WatchedTarget {
  readonly #children = new Map<string, WatchedTarget>();
  /** Each paused request → the URL its redirect chain started from. */
  readonly #chains = new Map<string, string>();
  #nextId = 1;

  constructor(
    private readonly send: Send,
    private readonly options: RemoteGuardOptions,
  ) {}

  async start(): Promise<void> {
    await this.send('Fetch.enable', { patterns: [{ urlPattern: '*', requestStage: 'Request' }] });
    await this.send('Target.setAutoAttach', {
      autoAttach: true,
      waitForDebuggerOnStart: true,
      flatten: false,
    });
  }

  on(method: string, params: Params): void {
    if (method === 'Fetch.requestPaused') void this.#paused(params);
    else if (method === 'Target.attachedToTarget') void this.#attached(String(params.sessionId));
    else if (method === 'Target.detachedFromTarget') this.#children.delete(String(params.sessionId));
    else if (method === 'Target.receivedMessageFromTarget') {
      this.#children.get(String(params.sessionId))?.message(String(params.message));
    }
  }

  /** A message from this target, as its parent's session passed it on. */
  message(text: string): void {
    let message: { method?: unknown; params?: Params };
    try {
      message = JSON.parse(text) as typeof message;
    } catch {
      return;
    }
    if (typeof message.method === 'string') this.on(message.method, message.params ?? {});
  }

  async #attached(sessionId: string): Promise<void> {
    const child = new WatchedTarget(
      (method, params) =>
        this.send('Target.sendMessageToTarget', {
          sessionId,
          message: JSON.stringify({ id: this.#nextId++, method, params: params ?? {} }),
        }),
      this.options,
    );
    this.#children.set(sessionId, child);
    try {
      await child.start();
    } catch {
      // Gone before it could be watched (a frame or worker that ended at once): nothing is left
      // to guard. One that is still there stays paused: it never runs unwatched. (Called as
      // `void`: a rejection here would be unhandled and stop the host.)
      this.#children.delete(sessionId);
      return;
    }
    // Messages to a target are handled in order: it runs only once it is watched.
    await child.send('Runtime.runIfWaitingForDebugger').catch(() => undefined);
  }

  /**
   * Every request is checked here too, not only redirect hops: a frame in a process of its own
   * can send its first request before Playwright's route intercepts in it (seen: an iframe of a
   * loopback name loaded in a remote browser), so the route alone is not enough.
   */
  async #paused(event: Params): Promise<void> {
    const requestId = String(event.requestId);
    const url = (event.request as { url?: unknown } | undefined)?.url;
    const target = typeof url === 'string' ? url : '';
    const from = typeof event.redirectedRequestId === 'string' ? event.redirectedRequestId : undefined;
    const via = from === undefined ? target : (this.#chains.get(from) ?? target);
    this.#chains.set(requestId, via);
    if (this.#chains.size > MAX_CHAINS) this.#chains.delete(this.#chains.keys().next().value!);
    const verdict = await verdictFor(target, this.options);
    try {
      if (verdict.allowed) {
        await this.send('Fetch.continueRequest', { requestId });
        return;
      }
      // The browser reports a refused hop as the failure of its chain's first URL: say which.
      this.options.onRefused({ target, reason: verdict.reason, via });
      await this.send('Fetch.failRequest', { requestId, errorReason: 'BlockedByClient' });
    } catch {
      // The request or the target went away meanwhile: nothing is left to decide.
    }
  }
}

/**
 * Addresses are checked for http(s); the browser's own rules govern its other schemes (a web
 * page can reach neither `file:` nor `chrome:`), as they do behind the local proxy. A guard that
 * cannot decide refuses.
 */
async function verdictFor(target: string, options: RemoteGuardOptions): Promise<TargetVerdict> {
  try {
    const url = new URL(target);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return { allowed: true, addresses: [] };
    return await checkHost(url.hostname, options.resolver, options.policy());
  } catch {
    return { allowed: false, kind: 'malformed', reason: 'the network guard could not check this request' };
  }
}
