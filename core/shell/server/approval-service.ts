import { randomUUID } from 'node:crypto';
import type { Disposable } from '@vmark/sdk';
import { ArgumentError, toDisposable } from '@vmark/sdk';
import { MAX_WAITING, MAX_WAITING_PER_CONNECTION } from '../../approvals/approval-broker.js';
import { shownRequest } from '../../approvals/approval-message.js';
import type { Approver, ApproverAnswer, ApproverQuestion } from '../../approvals/approver.js';
import type { PanelMessage, UiApprovalAnswer, UiApprovalAsk } from '../../protocol/panel-protocol.js';

/** Where the broker's approvers are registered: `ApprovalBroker` in the host. */
export interface ApproverRegistry {
  registerApprover(approver: Approver): Disposable;
}

interface OpenAsk {
  readonly ask: UiApprovalAsk;
  /** Identical requests of one connection asked while this one is open share its dialog and its answer. */
  readonly key: string;
  readonly settle: (answer: ApproverAnswer | Error) => void;
}

type Sink = (message: PanelMessage) => void;

/**
 * The UI as the broker's first approver (DESIGN §5): while at least one window
 * is connected, every approval request becomes a dialog in every window, naming
 * the client connection that asks, and the call waits for the first answer. When the last window goes (closed,
 * reloaded, connection lost) or the call is cancelled, the open questions are
 * withdrawn unanswered, so the broker asks the next approver: never an allow.
 */
export class UiApprovals implements Disposable {
  readonly #sinks = new Set<Sink>();
  readonly #open = new Map<string, OpenAsk>();
  #registration: Disposable | undefined;

  constructor(private readonly registry: ApproverRegistry) {}

  /** A window that shows dialogs; it gets the questions already open. Dispose it when the window goes. */
  attach(sink: Sink): Disposable {
    this.#sinks.add(sink);
    this.#registration ??= this.registry.registerApprover({
      kind: 'ui',
      ask: (...args) => this.#ask(...args),
    });
    for (const { ask } of this.#open.values()) sink({ type: 'approval.ask', ask });
    return toDisposable(() => {
      if (!this.#sinks.delete(sink) || this.#sinks.size > 0) return;
      this.#withdrawAll('every window closed before the question was answered');
    });
  }

  /**
   * A person's answer from a window.
   * @throws ArgumentError for a question that is not open (answered elsewhere,
   *   withdrawn), or "Allow on this site" / "Allow until navigation" where it was not offered;
   *   nothing changes then.
   */
  answer(askId: string, answer: UiApprovalAnswer): void {
    const open = this.#open.get(askId);
    if (!open) {
      throw new ArgumentError('That approval question is no longer open: it was answered or withdrawn');
    }
    if (answer === 'allow-site' && !offersSiteGrant(open.ask)) {
      throw new ArgumentError('"Allow on this site" was not offered for this request');
    }
    if (answer === 'allow-until-navigation' && open.ask.untilNavigation !== true) {
      throw new ArgumentError('"Allow until navigation" was not offered for this request');
    }
    open.settle(answer);
  }

  dispose(): void {
    this.#sinks.clear();
    this.#withdrawAll('the editor is closing');
  }

  #ask({ request, requestId, caller }: ApproverQuestion, signal: AbortSignal): Promise<ApproverAnswer> {
    if (this.#sinks.size === 0) return Promise.reject(new Error('no editor window is open'));
    if (signal.aborted) return Promise.reject(new Error('the call was cancelled'));
    const key = JSON.stringify([
      caller.connectionId,
      ...[
        request.operation,
        request.subject,
        request.origin,
        request.requested,
        request.warning,
        request.detail,
        request.untilNavigation === true ? 'until-navigation' : undefined,
      ].map((part) => part ?? null),
    ]);
    const open = [...this.#open.values()];
    const same = open.find((candidate) => candidate.key === key);
    // Bounded like the broker's own queue: a looping client cannot stack dialogs without end.
    const own = open.filter((candidate) => candidate.ask.client.connectionId === caller.connectionId).length;
    if (!same && (open.length >= MAX_WAITING || own >= MAX_WAITING_PER_CONNECTION)) {
      return Promise.reject(new Error('too many approval dialogs are open'));
    }
    return new Promise<ApproverAnswer>((resolve, reject) => {
      const cancelled = () => reject(new Error('the call was cancelled'));
      signal.addEventListener('abort', cancelled, { once: true });
      const finish = (answer: ApproverAnswer | Error) => {
        signal.removeEventListener('abort', cancelled);
        if (answer instanceof Error) reject(answer);
        else resolve(answer);
      };
      if (same) {
        // Chain onto the open dialog rather than showing the same question twice.
        const previous = same.settle;
        this.#open.set(same.ask.askId, {
          ...same,
          settle: (answer) => {
            previous(answer);
            finish(answer);
          },
        });
        return;
      }
      const ask: UiApprovalAsk = {
        askId: `ask-${randomUUID()}`,
        requestId,
        ...shownRequest(request),
        // The dialog alone gets the picture: it is not in `vmark approvals list` or the log.
        ...(request.image === undefined ? {} : { image: request.image }),
        grantable: request.grantable,
        ...(request.untilNavigation === true ? { untilNavigation: true } : {}),
        client: {
          connectionId: caller.connectionId,
          name: caller.clientName,
          version: caller.clientVersion,
          principal: caller.principal,
        },
      };
      this.#open.set(ask.askId, {
        ask,
        key,
        settle: (answer) => {
          this.#open.delete(ask.askId);
          this.#broadcast({ type: 'approval.settled', askId: ask.askId });
          finish(answer);
        },
      });
      // A cancelled call takes its dialog with it (identical calls sharing it go to their next approver).
      signal.addEventListener(
        'abort',
        () => this.#open.get(ask.askId)?.settle(new Error('the call was cancelled')),
        {
          once: true,
        },
      );
      this.#broadcast({ type: 'approval.ask', ask });
    });
  }

  #withdrawAll(reason: string): void {
    for (const open of [...this.#open.values()]) open.settle(new Error(reason));
    this.#registration?.dispose();
    this.#registration = undefined;
  }

  #broadcast(message: PanelMessage): void {
    for (const sink of [...this.#sinks]) sink(message);
  }
}

function offersSiteGrant(ask: UiApprovalAsk): boolean {
  return ask.grantable && ask.origin !== undefined;
}
