/**
 * Attachments of a person's own browser tabs (vmark-notes §3, issue 17 item 3, ADR 52): the AI
 * reads or acts in a human tab only while the person has attached it. "Allow once" is spent by
 * one read or act, and lapses unspent when the tab's generation moves (an in-page navigation
 * included). An attachment is bound to the tab, its page generation and the connection that
 * asked: another client never spends it. "Allow until navigation" covers every read, act and wait
 * of that connection until the generation moves. Kept in memory only, per tab.
 */
import type { Approvals, ToolCall } from '@vmark/sdk';
import { TokenError } from '@vmark/sdk';
import { approvalDenied, approvalRequired } from '../approval-refusal.js';
import { originForAgent } from '../url/redact.js';
import type { BrowserTab } from './browser-tab.js';
import { askNoting } from './note-activity.js';

/** What the AI would do with the attachment: `wait` is a wait_for that watches the URL, over time. */
export type AttachmentUse = 'read' | 'act' | 'wait';

interface Attachment {
  readonly generation: number;
  readonly connectionId: string;
  /** "Allow until navigation": not spent by a use, only ended by the page's next generation. */
  readonly untilNavigation: boolean;
}

export class TabAttachments {
  readonly #held = new Map<string, Attachment>();

  constructor(private readonly approvals: Approvals) {}

  /** Whether the tab is attached now, for anyone (`session.get_state`'s `attached`). */
  isAttached(tab: BrowserTab): boolean {
    return this.#live(tab) !== undefined;
  }

  /**
   * Lets one read, act or wait of the calling connection happen in a human tab, asking the person
   * when no attachment of theirs covers it; AI tabs need none. Fails closed: nobody to ask, a
   * timeout or a deny refuses as any approval does.
   * @throws TokenError `ATTACHMENT_ONCE_INSUFFICIENT` for a `wait` under "Allow once" (kept unspent);
   *   `STALE_COMMAND` when the page navigated while the person was asked; the approval refusals.
   */
  async use(tab: BrowserTab, use: AttachmentUse, call: ToolCall): Promise<void> {
    if (tab.owner !== 'human') return;
    const held = this.#live(tab);
    if (held !== undefined && held.connectionId === call.caller.connectionId) {
      this.#spend(tab, held, use);
      return;
    }
    this.#spend(tab, await this.#ask(tab, call), use);
  }

  /** The tab went away. */
  forget(tabId: string): void {
    this.#held.delete(tabId);
  }

  #live(tab: BrowserTab): Attachment | undefined {
    const held = this.#held.get(tab.id);
    if (held === undefined) return undefined;
    if (held.generation === tab.generation && tab.closed === null) return held;
    // Any navigation ends it, an in-page one included.
    this.#held.delete(tab.id);
    return undefined;
  }

  #spend(tab: BrowserTab, held: Attachment, use: AttachmentUse): void {
    if (held.untilNavigation) return;
    if (use === 'wait') {
      // Kept: it still covers one read or act.
      throw new TokenError(
        'ATTACHMENT_ONCE_INSUFFICIENT',
        `tab ${tab.id} is attached for one read or act only ("Allow once"); waiting on its URL needs ` +
          '"Allow until navigation" — ask the user to attach it that way, or read it once instead',
        { tabId: tab.id },
      );
    }
    this.#held.delete(tab.id);
  }

  async #ask(tab: BrowserTab, call: ToolCall): Promise<Attachment> {
    const origin = originForAgent(tab.page.url());
    const generation = tab.generation;
    const outcome = await askNoting(
      this.approvals,
      call,
      tab,
      {
        operation: 'attach',
        // The tab and its page generation: an answer never covers another tab or a later page.
        subject: `let the AI read and act in your tab ${tab.id} on ${origin} (page ${generation})`,
        origin,
        // "Allow on this site" would outlive the page; an attachment never does (ADR 52).
        grantable: false,
        untilNavigation: true,
      },
      'let the AI use your tab',
    );
    if (outcome.decision === 'denied') throw approvalDenied('attach', origin, outcome.requestId);
    if (outcome.decision !== 'allowed') throw approvalRequired('attach', origin, outcome.requestId);
    if (tab.generation !== generation) {
      throw new TokenError(
        'STALE_COMMAND',
        `your tab ${tab.id} navigated while 'attach' was being approved, so the approval was spent on the ` +
          'page before: retry to ask again',
        { tabId: tab.id, generation: tab.generation },
      );
    }
    const attachment: Attachment = {
      generation,
      connectionId: call.caller.connectionId,
      untilNavigation: outcome.lasts === 'until-navigation',
    };
    this.#held.set(tab.id, attachment);
    return attachment;
  }
}
