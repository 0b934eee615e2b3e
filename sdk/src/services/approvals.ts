import type { ToolCall } from '../tool.js';

/** What a person is asked to allow. */
export interface ApprovalRequest {
  /** What would happen, e.g. `open_workspace`, `save_as`, `execute_js`. */
  readonly operation: string;
  /** Exactly what it would happen to: a canonical folder or file path, a URL, a whole script. */
  readonly subject: string;
  /** The web origin the operation concerns, for browser operations. */
  readonly origin?: string;
  /** Whether "allow on this site" may be offered; never for eval, session, record or upload. */
  readonly grantable: boolean;
}

/**
 * - `allowed`: a person allowed it; go ahead, once.
 * - `denied`: a person refused it; a retry keeps failing until someone allows it.
 * - `pending`: nobody could be asked during this call; the request waits for a
 *   person (`vmark approvals`, the UI), and the same call retried later finds the answer.
 */
export type ApprovalOutcome =
  | { readonly decision: 'allowed'; readonly requestId: string; readonly by: ApproverKind }
  | { readonly decision: 'denied'; readonly requestId: string; readonly by: ApproverKind }
  | { readonly decision: 'pending'; readonly requestId: string };

export type ApproverKind = 'ui' | 'elicitation' | 'terminal';

export interface Approvals {
  /**
   * Asks a person, in order: the desktop UI if one is connected, then the
   * calling MCP client through elicitation if it declared that capability; with
   * neither, the request waits for `vmark approvals`. Fails closed.
   * @throws DomainError `RESOURCE_EXHAUSTED` when too many requests are waiting.
   */
  request(request: ApprovalRequest, call: ToolCall): Promise<ApprovalOutcome>;
}
