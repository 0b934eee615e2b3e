/**
 * The browser the AI's tabs live in (DESIGN §9): Playwright driving Chromium, started on the
 * first tab a posture needs (not when the host starts), stopped when no tab has been open for a
 * while and when the host stops. A local Chromium runs behind the guard proxy; a remote one
 * (`VMARK_BROWSER_ENDPOINT`: a CDP or Playwright browser-server WebSocket) has every request
 * checked by route interception instead. A browser that goes away (crashed, killed, its
 * connection dropped) is forgotten at once, its tabs told, and the next tab starts afresh.
 *
 * - `sandbox`: one fresh, non-persistent context shared by the sandbox tabs;
 * - `shared`: a persistent profile under `$VMARK_HOME/browser/profile` (local Chromium only).
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { type Disposable, TokenError } from '@vmark/sdk';
import { type GuardProxy, startGuardProxy, type Refusal } from '../guard/guard-proxy.js';
import type { Resolver } from '../guard/resolver.js';
import { checkTarget, type TargetOptions } from '../guard/target-policy.js';
import { findChromium } from './chromium-path.js';
import { chromiumArgs, PROXY_BYPASS } from './launch-args.js';

export type Posture = 'sandbox' | 'shared';

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
}

/** Stopped with `dispose()`, which the plugin awaits on deactivation (the browser takes a moment to close). */
export class BrowserEngine {
  readonly #running = new Map<Posture, Promise<Running>>();
  readonly #lostListeners = new Set<(posture: Posture) => void>();
  readonly #refusals: Refusal[] = [];
  #proxy: Promise<GuardProxy> | undefined;
  #idleTimer: NodeJS.Timeout | undefined;
  #disposed = false;

  constructor(private readonly options: EngineOptions) {}

  /** A new page in the posture's context, starting the browser if needed. */
  async newPage(posture: Posture): Promise<{ page: Page; context: BrowserContext }> {
    if (this.#disposed) throw new TokenError('BROWSER_UNAVAILABLE', 'the host is stopping');
    this.busy();
    const running = await this.#start(posture);
    try {
      return { page: await running.context.newPage(), context: running.context };
    } catch {
      // The browser died since the last tab (its disconnect not yet seen): start afresh, once.
      this.#forget(posture);
      const again = await this.#start(posture);
      return { page: await again.context.newPage(), context: again.context };
    }
  }

  /** Told when a posture's browser goes away; its tabs are gone with it. */
  onLost(listener: (posture: Posture) => void): Disposable {
    this.#lostListeners.add(listener);
    return { dispose: () => this.#lostListeners.delete(listener) };
  }

  /** The guard's refusals since `since` (a count from `refusalCount`), newest last. */
  refusalsSince(since: number): readonly Refusal[] {
    return this.#refusals.slice(since);
  }

  get refusalCount(): number {
    return this.#refusals.length;
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

  #start(posture: Posture): Promise<Running> {
    let running = this.#running.get(posture);
    if (!running) {
      running = this.#launch(posture);
      this.#running.set(posture, running);
      running.catch(() => this.#running.delete(posture));
    }
    return running;
  }

  async #launch(posture: Posture): Promise<Running> {
    const endpoint = this.options.endpoint;
    if (endpoint !== undefined && endpoint !== '') return this.#connect(posture, endpoint);
    const executablePath = findChromium(this.options.env);
    const proxy = await this.#guardProxy();
    const launch = {
      executablePath,
      headless: !this.options.headed,
      args: chromiumArgs({ asRoot: process.getuid?.() === 0 }),
      proxy: {
        server: proxy.server,
        bypass: PROXY_BYPASS,
        username: proxy.username,
        password: proxy.password,
      },
    };
    if (posture === 'shared') {
      const profile = path.join(this.options.home, 'browser', 'profile');
      await mkdir(profile, { recursive: true, mode: 0o700 });
      const context = await chromium.launchPersistentContext(profile, launch).catch((error: unknown) => {
        throw launchFailed(error);
      });
      context.on('close', () => this.#lost(posture));
      return { context, stop: () => context.close() };
    }
    const browser = await chromium.launch(launch).catch((error: unknown) => {
      throw launchFailed(error);
    });
    browser.on('disconnected', () => this.#lost(posture));
    const context = await browser.newContext();
    return { context, stop: () => browser.close() };
  }

  async #connect(posture: Posture, endpoint: string): Promise<Running> {
    if (posture === 'shared') {
      throw new TokenError(
        'BROWSER_UNAVAILABLE',
        'the shared posture keeps a profile on this machine, which a remote browser (VMARK_BROWSER_ENDPOINT) ' +
          'cannot; use the sandbox posture with it',
      );
    }
    const browser = await connectRemote(endpoint);
    browser.on('disconnected', () => this.#lost(posture));
    const context = await browser.newContext();
    // No proxy in front of a remote browser: each request is checked by its URL before it goes.
    await context.route('**/*', async (route) => {
      const verdict = await checkTarget(route.request().url(), this.options.resolver, this.options.policy());
      if (verdict.allowed) return route.continue();
      this.#refused({ target: route.request().url(), reason: verdict.reason });
      return route.abort('blockedbyclient');
    });
    return { context, stop: () => context.close().then(() => browser.close()) };
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
    // Only the recent ones are ever asked about.
    if (this.#refusals.length > 256) this.#refusals.splice(0, this.#refusals.length - 128);
  }

  #lost(posture: Posture): void {
    if (!this.#running.has(posture)) return;
    this.#running.delete(posture);
    for (const listener of [...this.#lostListeners]) listener(posture);
  }

  #forget(posture: Posture): void {
    const running = this.#running.get(posture);
    this.#running.delete(posture);
    void running?.then((r) => r.stop()).catch(() => undefined);
  }

  async #stopAll(): Promise<void> {
    const all = [...this.#running.entries()];
    this.#running.clear();
    for (const [posture, running] of all) {
      await running.then((r) => r.stop()).catch(() => undefined);
      for (const listener of [...this.#lostListeners]) listener(posture);
    }
  }
}

/** A CDP endpoint (`http(s)://`, or a `ws://…/devtools/browser/…`), else a Playwright browser server. */
async function connectRemote(endpoint: string): Promise<Browser> {
  const cdp = /^https?:/i.test(endpoint) || /\/devtools\/browser\//.test(endpoint);
  try {
    return cdp ? await chromium.connectOverCDP(endpoint) : await chromium.connect(endpoint);
  } catch (error) {
    throw new TokenError(
      'BROWSER_UNAVAILABLE',
      `could not reach the browser at VMARK_BROWSER_ENDPOINT (${endpoint}): ${firstLine(error)}`,
    );
  }
}

function launchFailed(error: unknown): TokenError {
  return new TokenError('BROWSER_UNAVAILABLE', `Chromium did not start: ${firstLine(error)}`);
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? 'unknown error';
}
