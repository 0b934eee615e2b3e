/**
 * One browser tab, the AI's or a person's own (`owner`): its page, what it reports in `session.get_state`, its
 * generation (bumped on every committed navigation of the main frame, same-document history
 * changes included, so that refs and approvals of the page before it lapse), and its
 * navigation tickets.
 */
import type { BrowserContext, Page, Response } from 'playwright-core';
import { type Disposable, type ProvidedTabState, TokenError, toDisposable } from '@vmark/sdk';
import { firstLine, type Posture } from '../engine/browser-engine.js';
import { REFUSED_HEADER } from '../guard/guard-proxy.js';
import {
  type NavigationOutcome,
  type NavigationTicket,
  NavigationTickets,
} from '../navigation/navigation-ticket.js';
import { IsolatedWorld } from '../perception/isolated-world.js';
import { PagePerception } from '../perception/page-perception.js';
import { TIMED_OUT, within } from '../time-bound.js';
import { originForAgent, urlForAgent } from '../url/redact.js';
import { TabActivity } from './tab-activity.js';
import { TabFavicon } from './tab-favicon.js';
import { TabLease } from './tab-lease.js';

export type AutomationMode = 'ai-sandbox' | 'ai-shared' | 'human';

/** Who opened the tab: the AI (a tool), or the person at the editor (its address bar). */
export type TabOwner = 'ai' | 'human';

/** Why a tab is gone, for the calls that still name it. */
export type ClosedReason = 'closed' | 'crashed' | 'browser-lost';

const CLOSED_WORDS: Record<ClosedReason, string> = {
  closed: 'was closed',
  crashed: 'was closed: its page crashed (open it again to continue)',
  'browser-lost': 'was closed: the browser it lived in stopped (open a new tab to start it again)',
};

/** `TAB_CLOSED`, for a call that names a tab that went away (or was waiting on it when it did). */
export function tabClosedError(tabId: string, reason: ClosedReason): TokenError {
  return new TokenError('TAB_CLOSED', `tab ${tabId} ${CLOSED_WORDS[reason]}`, { tabId });
}

/** How long a title is waited for: the page's main thread may be busy for ever. */
const TITLE_MS = 1000;

export class BrowserTab {
  /** What the AI did here, for the person (ADR 53). */
  readonly activity = new TabActivity();
  #generation = 0;
  #loading = false;
  #title = '';
  #closed: ClosedReason | null = null;
  /** The main-frame navigation request that failed last (a redirect hop, perhaps). */
  #failedUrl: string | null = null;
  /** The main frame's last document response. */
  #lastResponse: Response | null = null;
  readonly tickets = new NavigationTickets();
  /** Where vmark's scripts run in this tab's frames, out of the page's reach. */
  readonly world: IsolatedWorld;
  /** What perception keeps for this tab: its refs, its frames' documents, its console. */
  readonly perception: PagePerception;
  /** The page's icon for the editor's tab strip (ADR 56). */
  readonly favicon: TabFavicon;
  readonly #closeListeners = new Set<(reason: ClosedReason) => void>();
  readonly #navigateListeners = new Set<(url: string) => void>();
  /** Told when what the editor shows of the tab may have changed: its URL, title, loading. */
  readonly #changeListeners = new Set<() => void>();

  constructor(
    readonly id: string,
    readonly windowLabel: string,
    readonly posture: Posture,
    readonly page: Page,
    readonly context: BrowserContext,
    readonly owner: TabOwner = 'ai',
    /** Who drives the tab (the registry's, shared by all its tabs); a tab of its own has nobody to take it. */
    readonly lease: TabLease = new TabLease(),
  ) {
    this.world = new IsolatedWorld(page);
    this.perception = new PagePerception(page, this.world, () => this.#generation);
    this.favicon = new TabFavicon(page, this.world, () => this.#tellChanged());
    page.on('framenavigated', (frame) => {
      if (frame !== page.mainFrame()) return;
      this.#generation++;
      this.#tellChanged();
      void this.#refreshTitle();
    });
    page.on('request', (request) => {
      if (!request.isNavigationRequest() || request.frame() !== page.mainFrame()) return;
      this.#loading = true;
      this.#tellChanged();
    });
    // The title is parsed after the commit that `framenavigated` reports, and a page whose
    // images never arrive has no `load`: its title is taken once the document is parsed.
    page.on('domcontentloaded', () => void this.#refreshTitle());
    page.on('load', () => {
      this.#loading = false;
      this.#tellChanged();
      void this.#refreshTitle();
    });
    page.on('response', (response) => {
      const request = response.request();
      if (request.isNavigationRequest() && request.frame() === page.mainFrame())
        this.#lastResponse = response;
    });
    page.on('requestfailed', (request) => {
      if (!request.isNavigationRequest() || request.frame() !== page.mainFrame()) return;
      this.#loading = false;
      this.#tellChanged();
      // An aborted request was replaced (by another navigation), not refused or unreachable.
      if (request.failure()?.errorText !== 'net::ERR_ABORTED') this.#failedUrl = request.url();
    });
    page.on('crash', () => {
      this.markClosed('crashed');
      // A crashed page stays open in the browser until closed; nothing will use it again.
      page.close().catch(() => undefined);
    });
    // A page closes first when its browser goes away, and the browser says so just after: let
    // it, so that the tab reports why. A close of ours, or of the page's own, is a plain close.
    page.on('close', () => setImmediate(() => this.markClosed('closed')));
  }

  get generation(): number {
    return this.#generation;
  }

  get closed(): ClosedReason | null {
    return this.#closed;
  }

  get automationMode(): AutomationMode {
    if (this.owner === 'human') return 'human';
    return this.posture === 'shared' ? 'ai-shared' : 'ai-sandbox';
  }

  /** The page's URL as a client may see it. */
  get url(): string {
    return urlForAgent(this.page.url());
  }

  get title(): string {
    return this.#title;
  }

  get loading(): boolean {
    return this.#loading;
  }

  /** Called when the tab's URL, title or loading state may have changed; returns the unsubscribe. */
  onChange(listener: () => void): () => void {
    this.#changeListeners.add(listener);
    return () => this.#changeListeners.delete(listener);
  }

  #tellChanged(): void {
    for (const listener of [...this.#changeListeners]) listener();
  }

  /**
   * The tab in `session.get_state` (vmark-notes §2.1): a person's tab that no one attached shows
   * neither its title nor more of its URL than the origin, and only a person's tab says `attached`.
   */
  state(active: boolean, attached: boolean): ProvidedTabState {
    const hidden = this.owner === 'human' && !attached;
    return {
      id: this.id,
      kind: 'browser',
      ...(hidden ? {} : { title: this.#title }),
      url: hidden ? originForAgent(this.page.url()) : this.url,
      active,
      loading: this.#loading,
      generation: this.#generation,
      automationMode: this.automationMode,
      ...(this.owner === 'human' ? { attached } : {}),
    };
  }

  /** Starts a navigation; the ticket settles when the page has loaded, failed or been superseded. */
  navigate(url: string): NavigationTicket {
    this.#loading = true;
    for (const listener of [...this.#navigateListeners]) listener(url);
    return this.tickets.start(url, async (): Promise<NavigationOutcome> => {
      try {
        return await this.#load(url);
      } finally {
        await this.#refreshTitle();
      }
    });
  }

  async #load(url: string): Promise<NavigationOutcome> {
    this.#failedUrl = null;
    this.#lastResponse = null;
    try {
      const response = await this.#goto(url);
      // The document the page holds now: a script may have sent it on before it loaded.
      return await outcomeOf(this.#lastResponse ?? response);
    } catch (error) {
      if (await this.#goneMeanwhile()) return { kind: 'closed' };
      // Playwright ends its message with " at <the URL as asked>", query and all: the URL goes
      // to the client redacted, in the ticket, never in the message.
      const message = firstLine(error)
        .replace(/^page\.goto:\s*/, '')
        .replace(/ at \S+$/, '');
      if (!/interrupted by another navigation/i.test(message)) {
        return { kind: 'failed', error: message, url: this.#failedUrl ?? url };
      }
    }
    // The page sent itself elsewhere before it committed (a script, a meta refresh): that
    // navigation is this one's continuation, as a redirect would be. (A newer navigation of
    // ours has settled this ticket as superseded already.)
    await this.page.waitForLoadState('load', { timeout: 0 });
    if (this.#failedUrl !== null) {
      return { kind: 'failed', error: 'the page it was sent to could not be loaded', url: this.#failedUrl };
    }
    return outcomeOf(this.#lastResponse);
  }

  /**
   * Whether the tab closed while its navigation failed. A renderer that dies mid-navigation can
   * fail it (`net::ERR_ABORTED`) before the crash is reported: one round trip to the page lets
   * the report land, so the call answers TAB_CLOSED rather than a network error.
   */
  async #goneMeanwhile(): Promise<boolean> {
    if (this.#closed !== null) return true;
    await within(
      this.page.title().catch(() => ''),
      TITLE_MS,
    );
    return this.#closed !== null;
  }

  /**
   * `page.goto` with no time limit: the ticket waits as long as the page takes, callers bound
   * their wait. A failed navigation's error page may still be committing when the next one
   * starts and interrupt it; that one is started again, once.
   */
  async #goto(url: string): Promise<Response | null> {
    try {
      return await this.page.goto(url, { waitUntil: 'load', timeout: 0 });
    } catch (error) {
      if (!/interrupted by another navigation to "chrome-error:/i.test(firstLine(error))) throw error;
      return await this.page.goto(url, { waitUntil: 'load', timeout: 0 });
    }
  }

  onClosed(listener: (reason: ClosedReason) => void): Disposable {
    this.#closeListeners.add(listener);
    return toDisposable(() => this.#closeListeners.delete(listener));
  }

  /**
   * Every navigation vmark itself starts in this tab (`navigate`), with the URL as asked — not
   * the ones the page starts (a link, a script, a meta refresh): what the recorder records.
   */
  onHostNavigation(listener: (url: string) => void): Disposable {
    this.#navigateListeners.add(listener);
    return toDisposable(() => this.#navigateListeners.delete(listener));
  }

  markClosed(reason: ClosedReason): void {
    if (this.#closed !== null) return;
    this.#closed = reason;
    this.tickets.abandon();
    for (const listener of [...this.#closeListeners]) listener(reason);
  }

  async #refreshTitle(): Promise<void> {
    try {
      const title = await within(this.page.title(), TITLE_MS);
      if (title === TIMED_OUT || title === this.#title) return;
      this.#title = title;
      this.#tellChanged();
    } catch {
      // Mid-navigation or closed: the next event refreshes it.
    }
  }
}

/** A loaded document's outcome: a page the guard put in place of a refused one is a refusal. */
async function outcomeOf(response: Response | null): Promise<NavigationOutcome> {
  if (response !== null && (await response.headerValue(REFUSED_HEADER)) !== null) {
    return {
      kind: 'refused',
      reason: 'a redirect led to an address pages may not reach',
      url: response.url(),
    };
  }
  return { kind: 'loaded', status: response?.status() ?? null };
}
