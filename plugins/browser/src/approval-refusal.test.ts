import { describe, expect, it } from 'vitest';
import { approvalDenied, approvalRequired } from './approval-refusal.js';

/* The approval refusals as vmark-notes §1.2 words them, verbatim: the AI is told to ask and wait. */

describe('approvalRequired', () => {
  it('names the call to retry when the approval covers a tab the AI must reuse', () => {
    const refusal = approvalRequired('navigate', 'https://a.example', 'apr-AAAAAAAA', {
      action: 'navigate',
      tabId: 't1',
    });
    expect(refusal.message).toBe(
      "approval required: 'navigate' on https://a.example. Ask the user to approve this action in VMark and WAIT." +
        ' Once they have approved, retry with browser {action:"navigate", tabId:"t1"} — a fresh open would ' +
        'create a new tab that the approval cannot cover. Do not retry before they have approved — a retry ' +
        'only re-raises the same request.',
    );
    expect(refusal.structured).toEqual({
      needsApproval: true,
      operation: 'navigate',
      url: 'https://a.example',
      requestId: 'apr-AAAAAAAA',
      retry: { action: 'navigate', tabId: 't1' },
    });
  });

  it('names the other arguments the retry needs (workflow_record start)', () => {
    const refusal = approvalRequired('record', 'https://a.example/form', 'apr-CCCCCCCC', {
      action: 'workflow_record',
      tabId: 't2',
      args: { recordOp: 'start' },
    });
    expect(refusal.message).toContain(
      'retry with browser {action:"workflow_record", tabId:"t2", recordOp:"start"} — a fresh open',
    );
    expect(refusal.structured).toMatchObject({
      retry: { action: 'workflow_record', tabId: 't2', recordOp: 'start' },
    });
  });

  it('says "try again" without a retry, and carries no retry then', () => {
    const refusal = approvalRequired('style', 'https://a.example/page', 'apr-BBBBBBBB');
    expect(refusal.message).toBe(
      "approval required: 'style' on https://a.example/page. Ask the user to approve this action in VMark and " +
        'WAIT. Once they have approved, try again. Do not retry before they have approved — a retry only ' +
        're-raises the same request.',
    );
    expect(refusal.structured).toEqual({
      needsApproval: true,
      operation: 'style',
      url: 'https://a.example/page',
      requestId: 'apr-BBBBBBBB',
    });
  });
});

describe('approvalDenied', () => {
  it('tells the AI not to retry, and marks the needs-approval object denied', () => {
    const refusal = approvalDenied('eval', 'https://a.example/', 'apr-CCCCCCCC');
    expect(refusal.message).toBe(
      "the user declined 'eval' on https://a.example/. Do not retry unless they ask you to; the same call " +
        'keeps failing until they approve it.',
    );
    expect(refusal.structured).toEqual({
      needsApproval: true,
      denied: true,
      operation: 'eval',
      url: 'https://a.example/',
      requestId: 'apr-CCCCCCCC',
    });
  });
});
