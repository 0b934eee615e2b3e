import type { ApproverKind } from '@vmark/sdk';

/**
 * The operations a person is asked about on every call, never "on this site" (vmark-notes §3.1):
 * a script, a saved identity, a recording, a file upload. The broker refuses a standing grant for
 * them whatever the request says, so a plugin that marks one `grantable` by mistake cannot open it.
 */
export const NEVER_STANDING: ReadonlySet<string> = new Set(['eval', 'session', 'record', 'upload']);

/**
 * One "Allow on this site" as a person sees it (`vmark approvals grants`, the Settings list): which
 * operation, on which canonical origin, held by which connection, since when. Value-free: no
 * subject, no text typed, no script — a grant names only what it covers.
 */
export interface StandingGrant {
  /** `grt-` + 8 alphanumerics: what `vmark approvals revoke` takes. */
  readonly id: string;
  readonly operation: string;
  /** `scheme://host[:port]`, lower-cased, punycode, default port dropped. */
  readonly origin: string;
  /** The one connection whose calls it covers (`conn-N`); it lapses with the host, never written down. */
  readonly connectionId: string;
  /** The name the client gives itself: its own claim. */
  readonly clientName: string;
  /** The installed client its credential names, or null. */
  readonly principal: string | null;
  /** Where the person said "on this site": the UI dialog or the client's elicitation form. */
  readonly grantedBy: ApproverKind;
  /** ISO 8601. */
  readonly grantedAt: string;
}

/** Which grants a revocation ends: one by id, every one on an origin, or all of them. */
export type GrantSelector = { readonly id: string } | { readonly origin: string } | { readonly all: true };

/** `revoke` named a grant id the broker does not hold. */
export class GrantNotFoundError extends Error {
  override readonly name = 'GrantNotFoundError';

  constructor(readonly id: string) {
    super(`No standing grant ${id}: it was already revoked, or never existed (see vmark approvals grants)`);
  }
}

/** `revoke` was given something that is not an http(s) origin. */
export class NotAnOriginError extends Error {
  override readonly name = 'NotAnOriginError';

  constructor(readonly origin: string) {
    super(
      `${JSON.stringify(origin)} is not an origin; write one as scheme://host[:port], e.g. https://example.com`,
    );
  }
}
