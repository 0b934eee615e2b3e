/**
 * One AI-owned browser tab: its page, what it reports in `session.get_state`, its
 * generation (bumped on every committed navigation of the main frame, same-document history
 * changes included, so that refs and approvals of the page before it lapse), and its
 * navigation tickets.
 */
import type { BrowserContext, Page, Response } from 'playwright-core';
import type { ProvidedTabState } from '@vmark/sdk';
import type { Posture } from '../engine/browser-engine.js';
import { REFUSED_HEADER } from '../guard/guard-proxy.js';
import {
  type NavigationOutcome,
  type NavigationTicket,
  NavigationTickets,
} from '../navigation/navigation-ticket.js';
import { IsolatedWorld } from '../perception/isolated-world.js';
import { PagePerception } from '../perception/page-perception.js';
import { urlForAgent } from '../url/redact.js';

export type AutomationMode = 'ai-sandbox' | 'ai-shared';

/** Why a tab is gone, for the calls that still name it. */
export type ClosedReason = 'closed' | 'crashed' | 'browser-lost';

export class BrowserTab {
  #generation = 0;
  #loading = false;
  #title = '';
  #closed: ClosedReason | null = null;
  readonly tickets = new NavigationTickets();
  /** Where vmark's scripts run in this tab's frames, out of the page's reach. */
  readonly world: IsolatedWorld;
  /** What perception keeps for this tab: its refs, its frames' documents, its console. */
  readonly perception: PagePerception;
  readonly #closeListeners = new Set<(reason: ClosedReason) => void>();

  constructor(
    readonly id: string,
    readonly windowLabel: string,
    readonly posture: Posture,
    readonly page: Page,
    readonly context: BrowserContext,
  ) {
    this.world = new IsolatedWorld(page);
    this.perception = new PagePerception(page, this.world, () => this.#generation);
    page.on('framenavigated', (frame) => {
      if (frame !== page.mainFrame()) return;
      this.#generation++;
      void this.#refreshTitle();
    });
    page.on('request', (request) => {
      if (request.isNavigationRequest() && request.frame() === page.mainFrame()) this.#loading = true;
    });
    page.on('load', () => {
      this.#loading = false;
      void this.#refreshTitle();
    });
    page.on('requestfailed', (request) => {
      if (request.isNavigationRequest() && request.frame() === page.mainFrame()) this.#loading = false;
    });
    page.on('crash', () => this.markClosed('crashed'));
    page.on('close', () => this.markClosed('closed'));
  }

  get generation(): number {
    return this.#generation;
  }

  get closed(): ClosedReason | null {
    return this.#closed;
  }

  get automationMode(): AutomationMode {
    return this.posture === 'shared' ? 'ai-shared' : 'ai-sandbox';
  }

  /** The page's URL as a client may see it. */
  get url(): string {
    return urlForAgent(this.page.url());
  }

  get title(): string {
    return this.#title;
  }

  state(active: boolean): ProvidedTabState {
    return {
      id: this.id,
      kind: 'browser',
      title: this.#title,
      url: this.url,
      active,
      loading: this.#loading,
      generation: this.#generation,
      automationMode: this.automationMode,
    };
  }

  /** Starts a navigation; the ticket settles when the page has loaded, failed or been superseded. */
  navigate(url: string): NavigationTicket {
    this.#loading = true;
    return this.tickets.start(url, async (): Promise<NavigationOutcome> => {
      let response: Response | null;
      try {
        // No time limit here: the ticket waits as long as the page takes; callers bound their wait.
        response = await this.page.goto(url, { waitUntil: 'load', timeout: 0 });
      } catch (error) {
        const message = (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
        if (/interrupted by another navigation/i.test(message)) return { kind: 'superseded', by: null };
        return { kind: 'failed', error: message.replace(/^page\.goto:\s*/, '') };
      } finally {
        await this.#refreshTitle();
      }
      if (response !== null && (await response.headerValue(REFUSED_HEADER)) !== null) {
        return { kind: 'refused', reason: 'a redirect led to an address pages may not reach' };
      }
      return { kind: 'loaded', status: response?.status() ?? null };
    });
  }

  onClosed(listener: (reason: ClosedReason) => void): void {
    this.#closeListeners.add(listener);
  }

  markClosed(reason: ClosedReason): void {
    if (this.#closed !== null) return;
    this.#closed = reason;
    this.tickets.abandon();
    for (const listener of [...this.#closeListeners]) listener(reason);
  }

  async #refreshTitle(): Promise<void> {
    try {
      this.#title = await this.page.title();
    } catch {
      // Mid-navigation or closed: the next event refreshes it.
    }
  }
}
