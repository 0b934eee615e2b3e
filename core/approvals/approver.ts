import type { ApprovalRequest } from '@vmark/sdk';

/**
 * Someone the broker can ask during a call, before it falls back to elicitation
 * and then to the terminal queue. The desktop UI registers one while a window is
 * connected (dialog: Allow once / Deny).
 */
export interface Approver {
  readonly kind: 'ui';
  /**
   * Resolves with the person's answer. Rejects (or throws) when nobody could be
   * asked after all, e.g. the window closed: the broker then tries the next approver.
   */
  ask(request: ApprovalRequest, requestId: string): Promise<'allow' | 'deny'>;
}
