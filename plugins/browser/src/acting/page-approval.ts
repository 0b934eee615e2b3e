/**
 * Asking a person before vmark changes a page (vmark-notes §3.1): through the approval broker,
 * bound to the asking connection (the broker's own rule), to the page's origin, to the
 * operation, and to exactly what it does — the element, the text, the script. The page's
 * generation is part of what is approved, so any navigation of the tab (an in-page one
 * included) spends an approval given before it — also one given while it was being asked
 * (`STALE_COMMAND`). A standing "allow on this site" grant covers an operation on the origin
 * (the broker keys it by the canonical origin); `eval`, `session`, `record` and `upload` never
 * get one, which the broker enforces too. A tab the person took over while the approval was
 * asked is refused `LEASE_LOST`, whatever the answer. The answer is noted in the tab's activity
 * (ADR 57) in the activity's words, never with the text to type or the script.
 */
import type { Approvals, ToolCall } from '@vmark/sdk';
import { TokenError } from '@vmark/sdk';
import { approvalDenied, approvalRequired, type Retry } from '../approval-refusal.js';
import type { BrowserTab } from '../tabs/browser-tab.js';
import { askNoting, noteApproval } from '../tabs/note-activity.js';
import { originForAgent } from '../url/redact.js';

export type PageOperation =
  'click' | 'type' | 'scroll' | 'key' | 'style' | 'eval' | 'record' | 'upload' | 'publish';

const NEVER_STANDING: ReadonlySet<string> = new Set(['eval', 'session', 'record', 'upload']);

export async function approvePageChange(
  approvals: Approvals,
  call: ToolCall,
  request: {
    readonly tab: BrowserTab;
    readonly operation: PageOperation;
    /** Exactly what would happen, in words a person can check: "click button “Submit”". */
    readonly what: string;
    /** What the activity list says was asked: `what` without a typed text or a script. */
    readonly noted: string;
    /** A PNG data URL of the element as the page shows it (`elementCrop`), for the dialog. */
    readonly image?: string;
    readonly retry?: Retry;
  },
): Promise<void> {
  const { tab, operation, what } = request;
  const origin = originForAgent(tab.page.url());
  const generation = tab.generation;
  const outcome = await askNoting(
    approvals,
    call,
    tab,
    {
      operation,
      // The tab and its page generation too: an allowance left over in one tab (its page navigated
      // before it was used) is never spent in another that shows the same URL.
      subject: `${what} — on ${tab.url} (${tab.id}, page ${generation})`,
      origin,
      ...(request.image === undefined ? {} : { image: request.image }),
      grantable: !NEVER_STANDING.has(operation),
    },
    request.noted,
  );
  // The person may have taken the tab over while they were asked: an answer given after that is
  // no licence to drive it, and a request still waiting is taken back (ADR 53).
  if (tab.lease.isHumanDriving(tab.id)) {
    if (outcome.decision === 'pending' && approvals.withdraw?.(outcome.requestId, call) === true)
      noteApproval(tab, request.noted, outcome.requestId, 'withdrawn: the person took the tab over');
    tab.lease.assertAiMayDrive(tab.id);
  }
  if (outcome.decision === 'allowed') {
    // Asking takes time: a page that navigated meanwhile is not the page the person allowed.
    if (tab.generation === generation) return;
    throw new TokenError(
      'STALE_COMMAND',
      `the page navigated while '${operation}' was being approved (it is now ${tab.url}), so the approval ` +
        'was spent on the page before: read the page again, then retry',
      { tabId: tab.id, generation: tab.generation },
    );
  }
  if (outcome.decision === 'denied') throw approvalDenied(operation, tab.url, outcome.requestId);
  throw approvalRequired(operation, tab.url, outcome.requestId, request.retry);
}

/**
 * Whether a standing grant covers `operation` on the tab's origin for the asking connection,
 * without asking anyone: a bare `ref` is honoured only then (vmark-notes §3.1), since a prompt
 * needs a readable element. Fails closed — a broker that cannot tell answers no.
 */
export function hasStandingGrant(
  approvals: Approvals,
  call: ToolCall,
  tab: BrowserTab,
  operation: PageOperation,
): boolean {
  if (NEVER_STANDING.has(operation)) return false;
  return approvals.hasStandingGrant?.({ operation, origin: originForAgent(tab.page.url()) }, call) ?? false;
}
