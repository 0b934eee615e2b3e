/**
 * The operations a person is asked about on every call, never "on this site" (vmark-notes §3.1):
 * a script, a saved identity, a recording, a file upload. The broker refuses a standing grant for
 * them whatever the request says, so a plugin that marks one `grantable` by mistake cannot open it.
 */
export const NEVER_STANDING: ReadonlySet<string> = new Set(['eval', 'session', 'record', 'upload']);

/** One "Allow on this site", value-free: declared with the UI's messages, which carry it as it is. */
export type { StandingGrant } from '../protocol/panel-protocol.js';

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
