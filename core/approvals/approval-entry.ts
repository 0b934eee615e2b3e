import type { ApproverKind } from '@vmark/sdk';
import type { GrantSelector, StandingGrant } from './standing-grant.js';

/**
 * - `waiting`: nobody could be asked yet; a person at a terminal (or the UI) may answer.
 * - `allowed`: a person allowed it; the next identical request of the same connection goes ahead, once.
 * - `denied`: a person refused it; identical requests of the same connection fail until someone allows it.
 */
export type ApprovalStatus = 'waiting' | 'allowed' | 'denied';

/** `allow-until-navigation` only for a request that offered it (`ApprovalRequest.untilNavigation`). */
export type ApprovalDecision = 'allow' | 'allow-until-navigation' | 'deny';

/** One request as a person deciding on it sees it (`vmark approvals list`, the UI). */
export interface ApprovalEntry {
  readonly id: string;
  readonly operation: string;
  readonly subject: string;
  readonly origin?: string;
  /** The subject as the client wrote it, when that differs (a path before links are resolved). */
  readonly requested?: string;
  /** Why it cannot happen even if allowed, e.g. the path is not a folder. */
  readonly warning?: string;
  /** What else allowing it does, e.g. the file a save_as replaces. */
  readonly detail?: string;
  readonly status: ApprovalStatus;
  /** ISO 8601. */
  readonly createdAt: string;
  /** ISO 8601: when the entry is forgotten unless something happens to it first. */
  readonly expiresAt: string;
  /** The MCP client whose call asked for it, by the name it gives itself. */
  readonly clientName: string;
  /** The one connection whose retry can use an answer to this entry (`conn-N`). */
  readonly connectionId: string;
  /** The installed client the connection's credential names, or null: unlike `clientName`, not the client's own claim. */
  readonly principal: string | null;
  /** Offered "allow until navigation" (`vmark approvals allow --until-navigation ID`). */
  readonly untilNavigation?: true;
  /** Allowed until navigation rather than once. */
  readonly lasts?: 'until-navigation';
  readonly decidedBy?: ApproverKind;
  readonly decidedAt?: string;
}

/**
 * What a person at a terminal (or in Settings) can do with waiting requests and standing grants:
 * the control channel's view of the broker.
 */
export interface ApprovalDesk {
  list(): ApprovalEntry[];
  /** @throws ApprovalNotFoundError when no entry has this id (never existed, used, or expired). */
  decide(id: string, decision: ApprovalDecision): ApprovalEntry;
  /** Every standing grant held, oldest first. */
  grants(): StandingGrant[];
  /**
   * Ends grants at once: the next call they covered asks a person again.
   * @returns the grants revoked (none for an origin that held none, or `all` with none held).
   * @throws GrantNotFoundError for an id not held; NotAnOriginError for an origin that is not one.
   */
  revoke(selector: GrantSelector): StandingGrant[];
}

/** `decide` named an id the broker does not hold. */
export class ApprovalNotFoundError extends Error {
  override readonly name = 'ApprovalNotFoundError';

  constructor(readonly id: string) {
    super(`No approval request ${id}: it was already used, has expired, or never existed`);
  }
}

/** `decide` gave "allow until navigation" to a request that did not offer it. */
export class UntilNavigationNotOfferedError extends Error {
  override readonly name = 'UntilNavigationNotOfferedError';

  constructor(readonly id: string) {
    super(`Approval request ${id} did not offer "allow until navigation": allow it once or deny it`);
  }
}
