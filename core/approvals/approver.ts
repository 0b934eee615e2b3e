import type { ApprovalRequest, ToolCaller } from '@vmark/sdk';

/**
 * A person's answer in a dialog. `allow-site` is a standing grant for the
 * request's operation on its origin, kept in memory; it counts only for a
 * `grantable` request with an origin, and is a refusal otherwise; `allow-until-navigation` likewise
 * counts only for a request that set `untilNavigation`.
 */
export type ApproverAnswer = 'allow' | 'allow-site' | 'allow-until-navigation' | 'deny';

/** One question for a person: what would happen, the broker's id for it, and who asks. */
export interface ApproverQuestion {
  readonly request: ApprovalRequest;
  /** The broker's request id (`apr-…`), as `vmark approvals list` shows it. */
  readonly requestId: string;
  /** The connection that asks: the person is told, and their answer holds for it alone. */
  readonly caller: ToolCaller;
}

/**
 * Someone the broker can ask during a call, before it falls back to elicitation
 * and then to the terminal queue. The desktop UI registers one while a window is
 * connected (dialog: Allow once / Allow on this site / Deny).
 */
export interface Approver {
  readonly kind: 'ui';
  /**
   * Resolves with the person's answer. Rejects (or throws) when nobody could be
   * asked after all, e.g. the window closed or `signal` aborted (the MCP call was
   * cancelled): the broker then tries the next approver.
   */
  ask(question: ApproverQuestion, signal: AbortSignal): Promise<ApproverAnswer>;
}
