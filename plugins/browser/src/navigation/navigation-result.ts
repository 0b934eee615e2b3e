/**
 * What a navigation answers once its ticket settles, or the wait for it runs out: the tab's
 * state for a loaded page, else the typed error the original names (`TIMEOUT` keeps the ticket,
 * so `browser_read wait` can pick it up; `NAVIGATION_SUPERSEDED`; `PERMISSION_DENIED` for the
 * network guard, final and not approvable; `NAVIGATION_FAILED` for the network's own errors).
 */
import { TokenError } from '@vmark/sdk';
import type { BrowserEngine } from '../engine/browser-engine.js';
import type { BrowserTab } from '../tabs/browser-tab.js';
import { urlForAgent } from '../url/redact.js';
import type { NavigationOutcome, NavigationTicket } from './navigation-ticket.js';

export interface Gate {
  readonly kind: 'challenge' | 'consent' | 'login-required' | 'rate-limited';
  readonly hint: string;
}

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
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>(
    (resolve) => (timer = setTimeout(() => resolve('timeout'), timeoutMs)),
  );
  try {
    return await Promise.race([ticket.outcome, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export async function resultOf(
  tab: BrowserTab,
  ticket: NavigationTicket,
  outcome: NavigationOutcome | 'timeout',
  context: {
    readonly engine: BrowserEngine;
    /** The guard's refusal count when the navigation started. */
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
        'another navigation of this tab started before this one finished; read the tab to see where it is',
        { ...ticketData, ...(outcome.by ? { supersededBy: outcome.by } : {}) },
      );
    case 'refused':
      throw new TokenError(
        'PERMISSION_DENIED',
        `${outcome.reason}; this is final, not something to approve`,
        ticketData,
      );
    case 'failed': {
      const refused = context.engine.refusalsSince(context.refusalsBefore).at(-1);
      if (refused !== undefined) {
        throw new TokenError(
          'PERMISSION_DENIED',
          `${refused.reason}; this is final, not something to approve`,
          ticketData,
        );
      }
      throw new TokenError('NAVIGATION_FAILED', `the page could not be loaded: ${outcome.error}`, ticketData);
    }
    case 'loaded': {
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
