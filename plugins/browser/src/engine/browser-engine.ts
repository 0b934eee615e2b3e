/**
 * The browser the AI's tabs live in (DESIGN §9): Playwright driving Chromium, started on the
 * first tab a posture needs (not when the host starts), stopped when no tab has been open for a
 * while and when the host stops. A local Chromium runs behind the guard proxy; a remote one
 * (`VMARK_BROWSER_ENDPOINT`: a CDP or Playwright browser-server WebSocket) has every request
 * paused and checked over CDP instead (`guardRemoteBrowser`). A browser that goes away (crashed, killed, its
 * connection dropped) is forgotten at once, its tabs told, and the next tab starts afresh.
 *
 * - `sandbox`: one fresh, non-persistent context shared by the sandbox tabs;
 * - `shared`: a persistent profile under `$VMARK_HOME/browser/profile` (local Chromium only);
 * - a named profile (`open {profile}`): a persistent context of its own under
 *   `$VMARK_HOME/browser/profiles/`, isolated from the others (local Chromium only).
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { type Disposable, TokenError } from '@vmark/sdk';
import { type GuardProxy, startGuardProxy, type Refusal } from '../guard/guard-proxy.js';
import type { Resolver } from '../guard/resolver.js';
import { guardRemoteContext, type RemoteGuard, REMOTE_CONTEXT_OPTIONS } from '../guard/remote-guard.js';
import type { TargetOptions } from '../guard/target-policy.js';
import { TIMED_OUT, within } from '../time-bound.js';
import { urlForAgent } from '../url/redact.js';
import { findChromium } from './chromium-path.js';
import { chromiumArgs, PROXY_BYPASS } from './launch-args.js';
import { playwrightChromium } from './playwright-chromium.js';

export type Posture = 'sandbox' | 'shared';

/** What a page's context is: a posture's, or a named profile's. */
type ContextKey = Posture | `profile:${string}`;

export interface EngineOptions {
  readonly home: string;
  readonly resolver: Resolver;
  readonly policy: () => TargetOptions;
  /** A remote browser to use instead of a local Chromium. */
  readonly endpoint?: string;
  readonly headed: boolean;
  /** How long the browser stays up with no tab open. */
  readonly idleMs: number;
  readonly env?: NodeJS.ProcessEnv;
}

interface Running {
  readonly context: BrowserContext;
  /** Closes everything this posture started. */
  readonly stop: () => Promise<void>;
  /** A remote browser's guard, told of each page. */
  readonly guard?: RemoteGuard;
}

/** How long a local Chromium may take to start, or a remote one to answer, before the call fails. */
const START_MS = 20_000;
/** Refusals kept for attributing a failed navigation; only the recent ones are ever asked about. */
const MAX_REFUSALS = 256;

/** Stopped with `dispose()`, which the plugin awaits on deactivation (the browser takes a moment to close). */
export class BrowserEngine {
  readonly #running = new Map<ContextKey, Promise<Running>>();
  /** The context each posture's (or profile's) running browser serves, once started. */
  readonly #live = new Map<ContextKey, BrowserContext>();
  readonly #lostListeners = new Set<(context: BrowserContext) => void>();
  /** The recent refusals; `#refusalTotal` counts every one ever made. */
  readonly #refusals: Refusal[] = [];
  #refusalTotal = 0;
  #proxy: Promise<GuardProxy> | undefined;
  #idleTimer: NodeJS.Timeout | undefined;
  #disposed = false;

  constructor(private readonly options: EngineOptions) {}

  /**
   * A new page in the posture's context — or in the named profile's, which is its own — starting
   * the browser if needed. The profile name is checked by the caller (`PROFILE`).
   */
  async newPage(posture: Posture, profile?: string): Promise<{ page: Page; context: BrowserContext }> {
    if (this.#disposed) throw new TokenError('BROWSER_UNAVAILABLE', 'the host is stopping');
    this.busy();
    const key: ContextKey = profile === undefined ? posture : `profile:${profile}`;
    const running = await this.#start(key);
    try {
      return { page: await this.#pageIn(running), context: running.context };
    } catch {
      // The browser died since the last tab (its disconnect not yet seen): start afresh, once.
      this.#lost(key, running.context);
      void running.stop().catch(() => undefined);
      const again = await this.#start(key);
      try {
        return { page: await this.#pageIn(again), context: again.context };
      } catch (error) {
        throw new TokenError('BROWSER_UNAVAILABLE', `the browser could not open a tab: ${firstLine(error)}`);
      }
    }
  }

  /**
   * A new page, or a failure: Playwright's `newPage` never settles when the browser dies while
   * it runs, so it is raced against the context's end and a time bound.
   */
  async #pageIn(running: Running): Promise<Page> {
    let gone!: () => void;
    const ended = new Promise<typeof TIMED_OUT>((resolve) => {
      gone = () => resolve(TIMED_OUT);
      running.context.once('close', gone);
    });
    try {
      const page = await within(Promise.race([running.context.newPage(), ended]), START_MS);
      if (page === TIMED_OUT) throw new Error('the browser did not open a page');
      await running.guard?.watch(page);
      return page;
    } finally {
      running.context.off('close', gone);
    }
  }

  /** Told when a browser goes away, with the context it served; the tabs in it are gone with it. */
  onLost(listener: (context: BrowserContext) => void): Disposable {
    this.#lostListeners.add(listener);
    return { dispose: () => this.#lostListeners.delete(listener) };
  }

  /** The guard's refusals since `since` (a `refusalCount` read earlier), newest last. */
  refusalsSince(since: number): readonly Refusal[] {
    const kept = this.#refusalTotal - this.#refusals.length;
    return this.#refusals.slice(Math.max(since - kept, 0));
  }

  /** How many refusals the guard has made so far. */
  get refusalCount(): number {
    return this.#refusalTotal;
  }

  /** No tab is open: stop the browsers if none opens for a while. */
  idle(): void {
    clearTimeout(this.#idleTimer);
    this.#idleTimer = setTimeout(() => void this.#stopAll(), this.options.idleMs);
    this.#idleTimer.unref();
  }

  busy(): void {
    clearTimeout(this.#idleTimer);
    this.#idleTimer = undefined;
  }

  async dispose(): Promise<void> {
    this.#disposed = true;
    this.busy();
    await this.#stopAll();
    const proxy = this.#proxy;
    this.#proxy = undefined;
    if (proxy) (await proxy.catch(() => undefined))?.dispose();
  }

  #start(key: ContextKey): Promise<Running> {
    let running = this.#running.get(key);
    if (!running) {
      const started = this.#launch(key).then((r) => {
        this.#live.set(key, r.context);
        return r;
      });
      running = started;
      this.#running.set(key, started);
      started.catch(() => {
        if (this.#running.get(key) === started) this.#running.delete(key);
      });
    }
    return running;
  }

  async #launch(key: ContextKey): Promise<Running> {
    const endpoint = this.options.endpoint;
    if (endpoint !== undefined && endpoint !== '') return this.#connect(key, endpoint);
    const executablePath = await findChromium(this.options.env);
    const chromium = await playwrightChromium();
    const proxy = await this.#guardProxy();
    const launch = {
      executablePath,
      timeout: START_MS,
      headless: !this.options.headed,
      args: chromiumArgs({ asRoot: process.getuid?.() === 0 }),
      // Chromium's popup blocker stays on: a page may open at most one popup per user gesture
      // (and `act` closes that one), never a flood of them.
      ignoreDefaultArgs: ['--disable-popup-blocking'],
      proxy: {
        server: proxy.server,
        bypass: PROXY_BYPASS,
        username: proxy.username,
        password: proxy.password,
      },
    };
    const store = this.#storeOf(key);
    if (store !== undefined) {
      await mkdir(store, { recursive: true, mode: 0o700 });
      const context = await chromium.launchPersistentContext(store, launch).catch((error: unknown) => {
        throw launchFailed(error);
      });
      context.on('close', () => this.#lost(key, context));
      return { context, stop: () => context.close() };
    }
    const browser = await chromium.launch(launch).catch((error: unknown) => {
      throw launchFailed(error);
    });
    const context = await browser.newContext();
    browser.on('disconnected', () => this.#lost(key, context));
    return { context, stop: () => browser.close() };
  }

  /**
   * Where a persistent context keeps its data, or `undefined` for the sandbox's fresh one. A
   * profile's folder is `p-<name>`: the prefix keeps names like `..` inside `profiles/`.
   */
  #storeOf(key: ContextKey): string | undefined {
    const browser = path.join(this.options.home, 'browser');
    if (key === 'shared') return path.join(browser, 'profile');
    if (key === 'sandbox') return undefined;
    return path.join(browser, 'profiles', `p-${key.slice('profile:'.length)}`);
  }

  async #connect(key: ContextKey, endpoint: string): Promise<Running> {
    if (key === 'shared') {
      throw new TokenError(
        'BROWSER_UNAVAILABLE',
        'the shared posture keeps a profile on this machine, which a remote browser (VMARK_BROWSER_ENDPOINT) ' +
          'cannot; use the sandbox posture with it',
      );
    }
    if (key !== 'sandbox') {
      throw new TokenError(
        'BROWSER_UNAVAILABLE',
        'a named profile keeps its data on this machine, which a remote browser (VMARK_BROWSER_ENDPOINT) ' +
          'cannot; open the tab without `profile`',
      );
    }
    const browser = await connectRemote(endpoint);
    try {
      const context = await browser.newContext(REMOTE_CONTEXT_OPTIONS);
      // No proxy in front of a remote browser: the guard pauses each of its requests instead.
      const guard = await guardRemoteContext(context, {
        resolver: this.options.resolver,
        policy: this.options.policy,
        onRefused: (refusal) => this.#refused(refusal),
      });
      browser.on('disconnected', () => this.#lost(key, context));
      return { context, guard, stop: () => browser.close() };
    } catch (error) {
      await browser.close().catch(() => undefined);
      throw new TokenError(
        'BROWSER_UNAVAILABLE',
        `the browser at VMARK_BROWSER_ENDPOINT could not give vmark a guarded context: ${firstLine(error)}`,
      );
    }
  }

  #guardProxy(): Promise<GuardProxy> {
    this.#proxy ??= startGuardProxy({
      resolver: this.options.resolver,
      policy: this.options.policy,
      onRefused: (refusal) => this.#refused(refusal),
    });
    return this.#proxy;
  }

  #refused(refusal: Refusal): void {
    this.#refusals.push(refusal);
    this.#refusalTotal++;
    if (this.#refusals.length > MAX_REFUSALS)
      this.#refusals.splice(0, this.#refusals.length - MAX_REFUSALS / 2);
  }

  /** A browser went away (or was stopped): forget it, if it is still the key's, and tell its tabs. */
  #lost(key: ContextKey, context: BrowserContext): void {
    if (this.#live.get(key) === context) {
      this.#live.delete(key);
      this.#running.delete(key);
    }
    for (const listener of [...this.#lostListeners]) listener(context);
  }

  async #stopAll(): Promise<void> {
    const all = [...this.#running.entries()];
    for (const [key, running] of all) {
      const stopped = await running.catch(() => undefined);
      if (stopped === undefined) continue;
      this.#lost(key, stopped.context);
      await stopped.stop().catch(() => undefined);
    }
  }
}

/** A CDP endpoint (`http(s)://`, or a `ws://…/devtools/browser/…`), else a Playwright browser server. */
async function connectRemote(endpoint: string): Promise<Browser> {
  const cdp = /^https?:/i.test(endpoint) || /\/devtools\/browser\//.test(endpoint);
  const chromium = await playwrightChromium();
  try {
    return cdp
      ? await chromium.connectOverCDP(endpoint, { timeout: START_MS })
      : await chromium.connect(endpoint, { timeout: START_MS });
  } catch (error) {
    // A grid's address may carry a token in its query or userinfo: the AI sees neither.
    throw new TokenError(
      'BROWSER_UNAVAILABLE',
      `could not reach the browser at VMARK_BROWSER_ENDPOINT (${urlForAgent(endpoint)}): ${firstLine(error).replaceAll(endpoint, urlForAgent(endpoint))}`,
    );
  }
}

function launchFailed(error: unknown): TokenError {
  return new TokenError('BROWSER_UNAVAILABLE', `Chromium did not start: ${firstLine(error)}`);
}

/** An error's first line, for a message that names what went wrong without a stack. */
export function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? 'unknown error';
}
