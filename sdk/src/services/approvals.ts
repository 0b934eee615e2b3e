import type { ToolCall } from '../tool.js';

/** The longest `ApprovalRequest.image` the broker takes: a PNG of about 64 KiB, as a data URL. */
export const MAX_APPROVAL_IMAGE_CHARS = 88_000;

/** What an `ApprovalRequest.image` starts with: a PNG, base64-encoded, and nothing else. */
export const APPROVAL_IMAGE_PREFIX = 'data:image/png;base64,';

/** What a person is asked to allow. */
export interface ApprovalRequest {
  /** What would happen, e.g. `open_workspace`, `save_as`, `execute_js`. */
  readonly operation: string;
  /** Exactly what it would happen to: a canonical folder or file path, a URL, a whole script. */
  readonly subject: string;
  /**
   * The subject as the client wrote it, when `subject` is a resolved form of it (a path
   * before links are resolved). Shown to the person; another spelling is another request.
   */
  readonly requested?: string;
  /**
   * Why it cannot happen even if the person allows it (e.g. the path is not a folder),
   * in plain words. Shown to the person wherever they decide; part of what is decided.
   */
  readonly warning?: string;
  /**
   * What else allowing it does, in a plain sentence or two, when the operation's name does
   * not say it (e.g. that a `save_as` replaces the file there, of this size and hash). Shown
   * to the person wherever they decide; part of what is decided.
   */
  readonly detail?: string;
  /**
   * A picture of what it would happen to, for a person to recognize it — e.g. a crop of the page
   * around the element a click would press: a `data:image/png;base64,` URL of at most
   * MAX_APPROVAL_IMAGE_CHARS characters (the broker refuses anything else). Shown in the desktop
   * UI's dialog only: never in `vmark approvals list`, an elicitation or a log. An illustration,
   * not part of what is decided: the subject names exactly what is approved.
   */
  readonly image?: string;
  /** The web origin the operation concerns, for browser operations. */
  readonly origin?: string;
  /** Whether "allow on this site" may be offered; never for eval, session, record or upload. */
  readonly grantable: boolean;
  /**
   * Offer "Allow until navigation" besides "Allow once" (host API 1.8.0): an allowance the plugin
   * keeps until the page it concerns navigates (the browser's `attach`). The answer comes back as
   * `lasts: 'until-navigation'`; without this field it never does.
   */
  readonly untilNavigation?: boolean;
}

/**
 * Every outcome belongs to the connection that asked (`call.caller.connectionId`):
 * - `allowed`: a person allowed it; go ahead, once — or, with `lasts: 'until-navigation'` (only
 *   for a request that set `untilNavigation`), for as long as the page it concerns does not navigate.
 * - `denied`: a person refused it; a retry on the same connection keeps failing until
 *   someone allows it (another connection asking the same is asked on its own).
 * - `pending`: nobody could be asked during this call; the request waits for a
 *   person (`vmark approvals`, the UI), and the same call retried later on the same
 *   connection finds the answer.
 */
export type ApprovalOutcome =
  | {
      readonly decision: 'allowed';
      readonly requestId: string;
      readonly by: ApproverKind;
      readonly lasts?: 'until-navigation';
    }
  | { readonly decision: 'denied'; readonly requestId: string; readonly by: ApproverKind }
  | { readonly decision: 'pending'; readonly requestId: string };

export type ApproverKind = 'ui' | 'elicitation' | 'terminal';

export interface Approvals {
  /**
   * Asks a person, in order: the desktop UI if one is connected, then the
   * calling MCP client through elicitation if it declared that capability; with
   * neither, the request waits for `vmark approvals`. Fails closed. The person is
   * told which client asks, and their answer holds for the asking connection only.
   * @throws DomainError `RESOURCE_EXHAUSTED` when too many requests are waiting, in
   *   all or from this connection.
   */
  request(request: ApprovalRequest, call: ToolCall): Promise<ApprovalOutcome>;
  /**
   * Whether a person's standing grant ("Allow on this site") covers `operation` on `origin`
   * for the calling connection, asking nobody. Optional: where it is missing the answer is no
   * (fail closed).
   */
  hasStandingGrant?(grant: { readonly operation: string; readonly origin: string }, call: ToolCall): boolean;
  /**
   * Takes back a request still waiting for a person (a workflow run that ended no longer needs
   * its step approved): it leaves `vmark approvals list`, and a later answer to it finds nothing.
   * Only the connection that asked can withdraw it; answers whether something was withdrawn.
   */
  withdraw?(requestId: string, call: ToolCall): boolean;
}
