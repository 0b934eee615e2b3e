/**
 * What a navigation answers once its ticket settles, or the wait for it runs out: the tab's
 * state for a loaded page, else the typed error the original names (`TIMEOUT` keeps the ticket,
 * so `browser_read wait` can pick it up; `NAVIGATION_SUPERSEDED`; `PERMISSION_DENIED` for the
 * network guard, final and not approvable; `NAVIGATION_FAILED` for the network's own errors).
 */
import { TokenError } from '@vmark/sdk';
import type { BrowserEngine } from '../engine/browser-engine.js';
import type { Gate } from '../gates/classify-gate.js';
import type { Refusal } from '../guard/guard-proxy.js';
import { type BrowserTab, tabClosedError } from '../tabs/browser-tab.js';
import { TIMED_OUT, within } from '../time-bound.js';
import { urlForAgent } from '../url/redact.js';
import type { NavigationOutcome, NavigationTicket } from './navigation-ticket.js';

export interface NavigationResult {
  readonly tabId: string;
  readonly navigationId: string;
  readonly url: string;
  readonly title: string;
  readonly generation: number;
  readonly status?: number;
  readonly gate?: Gate;
}

/** The most a call waits for a page (vmark-notes §3.2, kept under the original's 10 s bridge deadline). */
export const MAX_WAIT_MS = 9000;

/** Waits for the ticket at most `timeoutMs`; the ticket goes on either way. */
export async function settle(
  ticket: NavigationTicket,
  timeoutMs: number,
): Promise<NavigationOutcome | 'timeout'> {
  const outcome = await within(ticket.outcome, timeoutMs);
  return outcome === TIMED_OUT ? 'timeout' : outcome;
}

export async function resultOf(
  tab: BrowserTab,
  ticket: NavigationTicket,
  outcome: NavigationOutcome | 'timeout',
  context: {
    readonly engine: BrowserEngine;
    /** The guard's refusal count (`refusalCount`) when the navigation started. */
    readonly refusalsBefore: number;
    readonly timeoutMs: number;
    readonly gateOf?: (tab: BrowserTab) => Promise<Gate | null>;
  },
): Promise<NavigationResult> {
  const ticketData = { tabId: tab.id, navigationId: ticket.id, url: urlForAgent(ticket.url) };
  if (outcome === 'timeout') {
    throw new TokenError(
      'TIMEOUT',
      `the page did not finish loading within ${context.timeoutMs} ms; it is still loading — pick up its ` +
        `result with browser_read {action: "wait", navigationId: "${ticket.id}"}`,
      ticketData,
    );
  }
  switch (outcome.kind) {
    case 'superseded':
      throw new TokenError(
        'NAVIGATION_SUPERSEDED',
        `another navigation of this tab (${outcome.by}) started before this one finished; read the tab to see where it is`,
        { ...ticketData, supersededBy: outcome.by },
      );
    case 'closed':
      throw tabClosedError(tab.id, tab.closed ?? 'closed');
    case 'refused':
    case 'failed': {
      // The guard's own words for the hop it refused, when it refused this one.
      const failedAt = outcome.url ?? ticket.url;
      const refused = context.engine
        .refusalsSince(context.refusalsBefore)
        .findLast((refusal) => sameTarget(refusal, failedAt));
      if (refused === undefined && outcome.kind === 'failed') {
        throw new TokenError(
          'NAVIGATION_FAILED',
          `the page could not be loaded: ${outcome.error}`,
          ticketData,
        );
      }
      const reason =
        refused?.reason ?? ('reason' in outcome ? outcome.reason : 'the network guard refused it');
      throw new TokenError(
        'PERMISSION_DENIED',
        `${reason}; this is final, not something to approve`,
        ticketData,
      );
    }
    case 'loaded': {
      // Advisory only: a probe that fails or finds nothing leaves the result as it is.
      const gate = (await context.gateOf?.(tab).catch(() => null)) ?? null;
      return {
        tabId: tab.id,
        navigationId: ticket.id,
        url: tab.url,
        title: tab.title,
        generation: tab.generation,
        ...(outcome.status === null ? {} : { status: outcome.status }),
        ...(gate ? { gate } : {}),
      };
    }
  }
}

/**
 * Whether the guard's refusal is of the request that failed: the same scheme, host and port
 * (a tunnel is refused for its host and port alone), or a hop of the chain it started. Chromium's own background requests are
 * refused too, and must not be blamed on a navigation that failed for another reason.
 */
function sameTarget(refusal: Refusal, failedUrl: string): boolean {
  const same = (a: string, b: string) => {
    try {
      const [x, y] = [new URL(a), new URL(b)];
      return x.protocol === y.protocol && x.host === y.host;
    } catch {
      return false;
    }
  };
  // A remote browser reports a refused redirect hop as the failure of the chain's first URL.
  return same(refusal.target, failedUrl) || (refusal.via !== undefined && refusal.via === failedUrl);
}
