/**
 * Which grant authorizes a delegated resolution (ADR 23): one the ledger and the person's record
 * in `$VMARK_HOME` agree on. The ledger lives in the workspace, which clients can reach by other
 * means than VMark's tools (a shell, git); the record does not. So a grant counts only when
 * both state it, with the same terms, and any disagreement about a grant that would fit refuses
 * the resolution outright: a ledger that says more or less than the record has been changed by
 * someone other than the person.
 *
 * Only grants this installation wrote (its writer id) are compared: a grant another machine made
 * reaches this ledger through git but was never in this record, and it is no authority here.
 */
import { ArgumentError } from '@vmark/sdk';
import { parseTime, type LedgerEntry } from '../kernel/ledger/index.js';
import type { GrantRecordRead, RecordedGrant } from './grant-record.js';
import { liveGrants, type DelegableScope, type Grant } from './grants.js';

export interface AuthorityQuestion {
  readonly entries: readonly LedgerEntry[];
  readonly record: GrantRecordRead;
  /** This installation's writer id. */
  readonly writer: string;
  readonly principal: string;
  readonly scope: DelegableScope;
  readonly now: Date;
}

/**
 * The grant that lets `principal` act in `scope` now.
 * @throws ArgumentError (a plain-string refusal) when there is none, or when the ledger and the
 *   person's record disagree about one that would fit.
 */
export function authorizingGrant(question: AuthorityQuestion): Grant {
  const { entries, record, writer, principal, scope, now } = question;
  const fits = (g: { delegate: string; scope: readonly string[] }) =>
    g.delegate === principal && g.scope.includes(scope);
  const live = liveGrants(entries, now).filter(fits);
  const own = live.filter((g) => g.writer === writer.toLowerCase());
  const foreign = live.filter((g) => g.writer !== writer.toLowerCase());

  if (!record.readable) {
    const [first] = own;
    if (first !== undefined)
      throw disagreement(
        first.grant,
        principal,
        scope,
        `the person's record cannot be read (${record.reason})`,
      );
    throw noLiveDelegation(principal, scope, foreign);
  }
  for (const grant of own) {
    const recorded = record.grants.find((r) => r.grant === grant.grant);
    if (recorded === undefined) {
      const damage = record.damaged.find((d) => d.grant === grant.grant);
      throw disagreement(
        grant.grant,
        principal,
        scope,
        damage === undefined
          ? "it is live in the ledger but revoked or absent in the person's record"
          : `the person's record of it is damaged (${damage.reason})`,
      );
    }
    if (!sameTerms(grant, recorded))
      throw disagreement(
        grant.grant,
        principal,
        scope,
        "its delegate, scope, expiry or entry in the ledger differ from the person's record",
      );
  }
  const recordedLive = record.grants.filter((r) => fits(r) && endOf(r.expires) > now.getTime());
  for (const recorded of recordedLive) {
    if (!own.some((g) => g.grant === recorded.grant))
      throw disagreement(
        recorded.grant,
        principal,
        scope,
        "it is live in the person's record but revoked, changed or absent in the ledger",
      );
  }
  // Any agreed grant authorizes; the one expiring last is named so the audit points at it.
  const chosen = [...own].sort((a, b) => endOf(b.expires) - endOf(a.expires))[0];
  if (chosen === undefined) throw noLiveDelegation(principal, scope, foreign);
  return chosen;
}

function sameTerms(grant: Grant, recorded: RecordedGrant): boolean {
  const scopes = (s: readonly string[]) => JSON.stringify([...new Set(s)].sort());
  return (
    grant.entryId === recorded.entry &&
    grant.delegate === recorded.delegate &&
    scopes(grant.scope) === scopes(recorded.scope) &&
    endOf(grant.expires) === endOf(recorded.expires)
  );
}

function endOf(expires: string): number {
  // A malformed expiry authorizes nothing.
  return parseTime(expires)?.epochMs ?? -Infinity;
}

function disagreement(grant: string, principal: string, scope: string, detail: string): ArgumentError {
  return new ArgumentError(
    `the ledger and the person's record disagree about grant ${grant} for "${principal}" (${scope}): ${detail}. ` +
      `It authorizes nothing. A person can run \`vmark coherence revoke ${grant}\` and delegate again; do not retry.`,
  );
}

/** The original's refusal, plus why a grant another installation made does not count. */
function noLiveDelegation(principal: string, scope: string, foreign: readonly Grant[]): ArgumentError {
  const base = `no live delegation authorizes "${principal}" for ${scope}`;
  if (foreign.length === 0) return new ArgumentError(base);
  return new ArgumentError(
    `${base} on this installation: grant ${foreign[0]!.grant} in the ledger was made by another ` +
      'installation (another VMARK_HOME or machine), and a grant authorizes only where it was made',
  );
}
