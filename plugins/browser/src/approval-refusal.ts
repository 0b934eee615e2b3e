/**
 * The browser's approval refusals, worded as the original's (vmark-notes §1.2): the text tells
 * the AI to ask the person and wait, and which call to retry; `structuredContent` is the
 * needs-approval object.
 */
import { Refusal } from '@vmark/sdk';

export interface Retry {
  readonly action: string;
  readonly tabId: string;
  /** Any other argument the retry needs (workflow_record's `recordOp`). */
  readonly args?: Readonly<Record<string, string>>;
}

/** The call to retry, as the text shows it: `{action:"…", tabId:"…", …}`. */
function retryCall(retry: Retry): string {
  const fields = { action: retry.action, tabId: retry.tabId, ...retry.args };
  return `{${Object.entries(fields)
    .map(([key, value]) => `${key}:${JSON.stringify(value)}`)
    .join(', ')}}`;
}

export function approvalRequired(operation: string, url: string, requestId: string, retry?: Retry): Refusal {
  const then = retry
    ? ` Once they have approved, retry with browser ${retryCall(retry)} — a fresh ` +
      'open would create a new tab that the approval cannot cover.'
    : ' Once they have approved, try again.';
  return new Refusal(
    `approval required: '${operation}' on ${url}. Ask the user to approve this action in VMark and WAIT.${then}` +
      ' Do not retry before they have approved — a retry only re-raises the same request.',
    {
      needsApproval: true,
      operation,
      url,
      requestId,
      ...(retry ? { retry: { action: retry.action, tabId: retry.tabId, ...retry.args } } : {}),
    },
  );
}

export function approvalDenied(operation: string, url: string, requestId: string): Refusal {
  return new Refusal(
    `the user declined '${operation}' on ${url}. Do not retry unless they ask you to; the same call keeps ` +
      'failing until they approve it.',
    { needsApproval: true, denied: true, operation, url, requestId },
  );
}
