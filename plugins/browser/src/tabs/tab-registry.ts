/**
 * The browser tabs: the AI's, at most eight at once (`TAB_LIMIT`), and the person's own (opened
 * from the editor's address bar, ADR 52; not counted), ids from the workbench's one
 * sequence (`tab-N`), listed in `session.get_state` with the document tabs. A call that names
 * no tab means the focused browser tab: the one opened or named last. A tab that went away
 * (closed, its renderer crashed, its browser lost) is remembered for a while, so a call that
 * still names it is told what happened instead of "unknown tab".
 */
import {
  type Approvals,
  type Disposable,
  type ProvidedTabLabel,
  type ProvidedTabState,
  type TabProviderRegistration,
  TokenError,
  type Workbench,
} from '@vmark/sdk';
import { type BrowserEngine, firstLine, type Posture } from '../engine/browser-engine.js';
import { TIMED_OUT } from '../time-bound.js';
import { BrowserTab, type ClosedReason, type TabOwner, tabClosedError } from './browser-tab.js';
import { closePage } from './close-page.js';
import { TabAttachments } from './tab-attachment.js';
import { TabLease } from './tab-lease.js';

export const MAX_AI_TABS = 8;
/** Closed tab ids remembered, to explain later calls that name them. */
const MAX_REMEMBERED = 64;
/**
 * How long a close waits for the browser to say the page is gone. Playwright's `page.close()`
 * waits for that for ever (it swallows a refused `Target.closeTarget`), and a browser that
 * stopped answering never says it: the call must not hang with it.
 */
export const CLOSE_DEADLINE_MS = 5000;

export class TabRegistry implements Disposable {
  readonly #tabs = new Map<string, BrowserTab>();
  readonly #gone = new Map<string, ClosedReason>();
  #focused: string | null = null;
  readonly #subscriptions: Disposable[];
  readonly #provider: TabProviderRegistration;
  /** Who drives each tab: the AI, or the person at the editor who took it over. */
  readonly lease = new TabLease();
  /** Which of the person's own tabs the AI may read or act in, for whom (ADR 52). */
  readonly attachments: TabAttachments;

  constructor(
    private readonly workbench: Workbench,
    private readonly engine: BrowserEngine,
    approvals: Approvals,
  ) {
    this.attachments = new TabAttachments(approvals);
    this.#provider = workbench.registerTabProvider({
      tabs: (label) => this.#states(label),
      label: (tabId) => this.#label(tabId),
      // The person's right, for the AI's tabs and their own (ADR 56): the teardown of browser.close.
      close: (tabId) => this.close(this.peek(tabId)),
    });
    this.#subscriptions = [
      this.#provider,
      this.lease.onChanged(() => this.#provider.changed()),
      engine.onLost((context) => {
        for (const tab of [...this.#tabs.values()])
          if (tab.context === context) tab.markClosed('browser-lost');
      }),
    ];
  }

  /** How many AI tabs are open (the person's own are not counted). */
  get size(): number {
    return this.#aiTabs().length;
  }

  #aiTabs(): BrowserTab[] {
    return [...this.#tabs.values()].filter((tab) => tab.owner === 'ai');
  }

  /** @throws TokenError `TAB_LIMIT` when no other AI tab may open (checked before anyone is asked). */
  assertRoom(): void {
    const open = this.#aiTabs();
    if (open.length >= MAX_AI_TABS) {
      throw new TokenError(
        'TAB_LIMIT',
        `at most ${MAX_AI_TABS} AI tabs may be open at once; close one (browser.close) before opening another`,
        { limit: MAX_AI_TABS, open: open.map((tab) => tab.id) },
      );
    }
  }

  /** A new AI-owned tab (about:blank), focused; in a named profile if given. @throws TokenError `TAB_LIMIT`. */
  async open(posture: Posture, windowLabel: string, profile?: string): Promise<BrowserTab> {
    this.assertRoom();
    return this.#add(posture, windowLabel, 'ai', profile);
  }

  /**
   * A person's own tab (about:blank), opened from the editor: in the shared posture, the
   * person's own cookie store (vmark-notes §3), never counted against the AI's limit. It does
   * not take the AI's focus: a call that names no tab never means it.
   */
  async openHuman(windowLabel: string): Promise<BrowserTab> {
    return this.#add('shared', windowLabel, 'human');
  }

  async #add(posture: Posture, windowLabel: string, owner: TabOwner, profile?: string): Promise<BrowserTab> {
    const { page, context } = await this.engine.newPage(posture, profile);
    const tab = new BrowserTab(
      this.workbench.allocateTabId(),
      windowLabel,
      posture,
      page,
      context,
      owner,
      this.lease,
    );
    // Before the first navigation: the console shim must be there when the page's scripts start.
    await tab.perception.console.install().catch(async (error: unknown) => {
      await page.close().catch(() => undefined);
      // Most often the browser died while the page was being made: say so as the engine does.
      if (error instanceof TokenError) throw error;
      throw new TokenError('BROWSER_UNAVAILABLE', `the browser could not open a tab: ${firstLine(error)}`);
    });
    tab.onClosed((reason) => this.#forget(tab, reason));
    tab.onChange(() => this.#provider.changed());
    this.#tabs.set(tab.id, tab);
    if (owner === 'ai') this.#focused = tab.id;
    this.#provider.changed();
    return tab;
  }

  /**
   * The tab a call means: the one named, else the focused one. Naming one of the AI's tabs
   * focuses it; a person's own tab never becomes the AI's focus (ADR 52), so it stays `active: false`.
   * @throws TokenError `INVALID_TAB` or `TAB_CLOSED`.
   */
  resolve(tabId: string | undefined): BrowserTab {
    const id = tabId ?? this.#focused;
    if (id === null) {
      throw new TokenError(
        'INVALID_TAB',
        'no browser tab is open; open one with browser {action: "open", url}',
      );
    }
    const tab = this.peek(id);
    if (tab.owner === 'ai') this.#focused = tab.id;
    return tab;
  }

  /** The open tab with this id, as the editor's view names it: the AI's focus stays where it is. */
  peek(id: string): BrowserTab {
    const tab = this.#tabs.get(id);
    if (tab !== undefined && tab.closed === null) return tab;
    const gone = tab?.closed ?? this.#gone.get(id);
    if (gone !== undefined) throw tabClosedError(id, gone);
    const isDocument = this.workbench.state().some((w) => w.tabs.some((t) => t.id === id));
    throw new TokenError(
      'INVALID_TAB',
      isDocument ? `tab ${id} is a document tab, not a browser tab` : `tabId could not be resolved: ${id}`,
      { tabId: id },
    );
  }

  /**
   * The tab a call that changes its page means (act, style, execute_js, navigate), as `resolve`.
   * @throws TokenError `LEASE_LOST` while the person drives it, besides `resolve`'s.
   */
  resolveToDrive(tabId: string | undefined): BrowserTab {
    const tab = this.resolve(tabId);
    this.lease.assertAiMayDrive(tab.id);
    return tab;
  }

  /**
   * The tab a call that only an AI tab takes means (close, navigate, wait, console), as `resolve`.
   * @throws TokenError `TAB_NOT_AI_OWNED` for a person's own tab, besides `resolve`'s.
   */
  resolveAiOwned(tabId: string | undefined, action: string): BrowserTab {
    const tab = this.resolve(tabId);
    if (tab.owner === 'ai') return tab;
    throw new TokenError(
      'TAB_NOT_AI_OWNED',
      `tab ${tab.id} is the user's own tab: ${action} takes an AI-owned tab (open one with browser open)`,
      { tabId: tab.id },
    );
  }

  /**
   * Closes a tab's page.
   * @throws TokenError `TAB_TEARDOWN_FAILED` when the page would not close, or the browser did
   *   not confirm it within CLOSE_DEADLINE_MS (the tab is then still listed until it does).
   */
  async close(tab: BrowserTab): Promise<void> {
    const outcome = await closePage(tab.page, CLOSE_DEADLINE_MS);
    if (outcome === undefined) {
      tab.markClosed('closed');
      return;
    }
    if (tab.closed !== null) return;
    const why =
      outcome === TIMED_OUT
        ? `the browser did not confirm it within ${CLOSE_DEADLINE_MS / 1000} s`
        : outcome instanceof Error
          ? outcome.message.split('\n')[0]
          : String(outcome);
    throw new TokenError('TAB_TEARDOWN_FAILED', `tab ${tab.id} could not be closed (${why}); do not retry`, {
      tabId: tab.id,
      destroyed: false,
    });
  }

  dispose(): void {
    for (const subscription of this.#subscriptions) subscription.dispose();
    for (const tab of this.#tabs.values()) tab.markClosed('browser-lost');
  }

  #forget(tab: BrowserTab, reason: ClosedReason): void {
    this.#tabs.delete(tab.id);
    this.lease.forget(tab.id);
    this.attachments.forget(tab.id);
    this.#gone.set(tab.id, reason);
    if (this.#gone.size > MAX_REMEMBERED) this.#gone.delete(this.#gone.keys().next().value!);
    if (this.#focused === tab.id) this.#focused = this.#aiTabs().at(-1)?.id ?? null;
    if (this.#tabs.size === 0) this.engine.idle();
    this.#provider.changed();
  }

  /** How the editor's tab strip shows a tab: its title (else its address), loading, who drives, its icon. */
  #label(tabId: string): ProvidedTabLabel {
    const tab = this.#tabs.get(tabId);
    const driver =
      tab?.owner === 'human' || this.lease.isHumanDriving(tabId)
        ? 'Human'
        : tab?.automationMode === 'ai-shared'
          ? 'AI shared'
          : 'AI sandbox';
    return {
      // A blank tab (one the person just opened, or the AI's before its first page) is a new tab.
      title: tab?.title || (tab?.url === 'about:blank' ? '' : tab?.url) || 'New tab',
      loading: tab?.loading ?? false,
      badge: driver,
      icon: tab?.favicon.dataUrl ?? null,
    };
  }

  #states(windowLabel: string): ProvidedTabState[] {
    return [...this.#tabs.values()]
      .filter((tab) => tab.windowLabel === windowLabel && tab.closed === null)
      .map((tab) => tab.state(tab.id === this.#focused, this.attachments.isAttached(tab)));
  }
}
