/**
 * `open`, `navigate` and `wait`: each navigation checked by the network guard before it starts
 * (and by the guard proxy at every hop after), approved per new origin in the shared posture,
 * tracked by a ticket, and answered within the call's time bound.
 */
import type { Approvals, ToolCall } from '@vmark/sdk';
import { TokenError } from '@vmark/sdk';
import { approvalDenied, approvalRequired } from '../approval-refusal.js';
import type { BrowserSettings } from '../browser-settings.js';
import type { BrowserEngine } from '../engine/browser-engine.js';
import type { Resolver } from '../guard/resolver.js';
import { checkTarget } from '../guard/target-policy.js';
import { approveProfile } from '../session/browser-profile.js';
import type { BrowserTab } from '../tabs/browser-tab.js';
import { askNoting } from '../tabs/note-activity.js';
import type { TabRegistry } from '../tabs/tab-registry.js';
import { originForAgent, urlForAgent } from '../url/redact.js';
import type { Gate } from '../gates/classify-gate.js';
import { type NavigationResult, resultOf, settle } from './navigation-result.js';
import type { NavigationTicket } from './navigation-ticket.js';

export interface NavigatorServices {
  readonly registry: TabRegistry;
  readonly engine: BrowserEngine;
  readonly resolver: Resolver;
  readonly settings: BrowserSettings;
  readonly approvals: Approvals;
  readonly gateOf?: (tab: BrowserTab) => Promise<Gate | null>;
}

export class Navigator {
  /** The guard's refusal count when each navigation started, to tell which refusals are its own. */
  readonly #refusalsBefore = new WeakMap<NavigationTicket, number>();

  constructor(private readonly services: NavigatorServices) {}

  /**
   * A new AI tab in the current posture — or in the named profile, once a person allowed this
   * use of it — navigated to `url`. No tab is made for a refused URL or an unapproved profile.
   */
  async open(
    url: string,
    timeoutMs: number,
    call: ToolCall,
    windowLabel: string,
    profile?: string,
  ): Promise<NavigationResult> {
    await this.#check(url);
    if (profile !== undefined) {
      // No one is asked for a tab that could not open.
      this.services.registry.assertRoom();
      await approveProfile(this.services.approvals, call, profile, url);
    }
    // A profile is a store of its own, not the person's shared one: no destination approvals.
    const posture = profile === undefined ? this.services.settings.posture() : 'sandbox';
    const tab = await this.services.registry.open(posture, windowLabel, profile);
    return this.#go(tab, url, timeoutMs, call, 'open', this.services.approvals);
  }

  /**
   * `approvals` asks in place of the host's broker where the caller scopes its prompts (a
   * workflow run: its clock stops and its status shows the prompt while the person is asked).
   */
  async navigate(
    tab: BrowserTab,
    url: string,
    timeoutMs: number,
    call: ToolCall,
    approvals: Approvals = this.services.approvals,
  ): Promise<NavigationResult> {
    await this.#check(url);
    return this.#go(tab, url, timeoutMs, call, 'navigate', approvals);
  }

  /** The outcome of a navigation already started (the latest, or `navigationId`); never starts one. */
  async wait(
    tab: BrowserTab,
    navigationId: string | undefined,
    timeoutMs: number,
  ): Promise<NavigationResult> {
    const ticket = navigationId === undefined ? tab.tickets.latest() : tab.tickets.get(navigationId);
    if (ticket === undefined) {
      if (navigationId !== undefined) {
        throw new TokenError('NAVIGATION_UNKNOWN', `tab ${tab.id} has no navigation ${navigationId}`, {
          tabId: tab.id,
          navigationId,
        });
      }
      throw new TokenError('NAVIGATION_UNKNOWN', `tab ${tab.id} has not navigated yet`, { tabId: tab.id });
    }
    const outcome = await settle(ticket, timeoutMs);
    return resultOf(tab, ticket, outcome, {
      engine: this.services.engine,
      refusalsBefore: this.#refusalsBefore.get(ticket) ?? 0,
      timeoutMs,
      gateOf: this.services.gateOf,
    });
  }

  async #check(url: string): Promise<void> {
    const verdict = await checkTarget(url, this.services.resolver, {
      allowPrivateNetwork: this.services.settings.allowPrivateNetwork(),
    });
    if (verdict.allowed) return;
    if (verdict.kind === 'unresolved') {
      throw new TokenError('NAVIGATION_FAILED', `the page could not be loaded: ${verdict.reason}`, {
        url: urlForAgent(url),
      });
    }
    throw new TokenError('PERMISSION_DENIED', `${verdict.reason}; this is final, not something to approve`, {
      url: urlForAgent(url),
    });
  }

  async #go(
    tab: BrowserTab,
    url: string,
    timeoutMs: number,
    call: ToolCall,
    action: 'open' | 'navigate',
    approvals: Approvals,
  ): Promise<NavigationResult> {
    if (tab.posture === 'shared') await this.#approveDestination(tab, url, call, action, approvals);
    const refusalsBefore = this.services.engine.refusalCount;
    const ticket = tab.navigate(url);
    this.#refusalsBefore.set(ticket, refusalsBefore);
    const outcome = await settle(ticket, timeoutMs);
    return resultOf(tab, ticket, outcome, {
      engine: this.services.engine,
      refusalsBefore,
      timeoutMs,
      gateOf: this.services.gateOf,
    });
  }

  /**
   * The shared posture carries the person's cookies: each new origin needs their approval
   * (a standing "allow on this site" grant covers later visits). The tab is kept, so the
   * retry navigates it instead of opening another the approval cannot cover.
   */
  async #approveDestination(
    tab: BrowserTab,
    url: string,
    call: ToolCall,
    action: 'open' | 'navigate',
    approvals: Approvals,
  ): Promise<void> {
    const origin = originForAgent(url);
    if (tab.page.url() !== 'about:blank' && originForAgent(tab.page.url()) === origin) return;
    const outcome = await askNoting(
      approvals,
      call,
      tab,
      { operation: 'navigate', subject: urlForAgent(url), origin, grantable: true },
      `${action} ${urlForAgent(url)}`,
    );
    if (outcome.decision === 'allowed') return;
    if (outcome.decision === 'denied') throw approvalDenied('navigate', origin, outcome.requestId);
    throw approvalRequired(
      'navigate',
      origin,
      outcome.requestId,
      action === 'open' ? { action: 'navigate', tabId: tab.id } : undefined,
    );
  }
}
