/**
 * Delegation grants (vmark-notes §7.3 `delegation`, §7.7): a person lets one installed client
 * resolve edges of given kinds until a date. A grant keeps one stable id across its entries;
 * a later entry supersedes an earlier one, and an entry with an empty scope revokes it.
 */
import {
  compareEntries,
  isKind,
  parseTime,
  type KnownEntry,
  type LedgerEntry,
} from '../kernel/ledger/index.js';

export const DELEGABLE_SCOPES = ['resolve.accept-newer', 'resolve.waive'] as const;
export type DelegableScope = (typeof DELEGABLE_SCOPES)[number];

export interface Grant {
  /** The stable grant id (`body.delegation`). */
  readonly grant: string;
  /** The entry that currently states the grant. */
  readonly entryId: string;
  readonly delegate: string;
  readonly scope: readonly string[];
  readonly expires: string;
  /** Who granted it. */
  readonly actor: string;
  /** The installation (writer id) whose segment holds the current entry. */
  readonly writer: string;
}

/**
 * The current entry of every grant: the latest, in ledger order, that no other entry
 * supersedes. Revoked grants (empty scope) are kept so callers can say "revoked".
 */
export function currentGrants(entries: readonly LedgerEntry[]): readonly Grant[] {
  const delegations = [...entries].sort(compareEntries).filter((e) => isKind(e, 'delegation'));
  const superseded = new Set(
    delegations.flatMap((e) => (e.body.supersedes ? [e.body.supersedes.toLowerCase()] : [])),
  );
  const byGrant = new Map<string, KnownEntry<'delegation'>>();
  for (const entry of delegations) {
    if (superseded.has(entry.id.toLowerCase())) continue;
    // Two unsuperseded entries of one grant (two writers at once): the later in reader order wins.
    byGrant.set(entry.body.delegation.toLowerCase(), entry);
  }
  return [...byGrant.values()].map((e) => ({
    grant: e.body.delegation.toLowerCase(),
    entryId: e.id.toLowerCase(),
    delegate: e.body.delegate.id,
    scope: e.body.scope,
    expires: e.body.expires,
    actor: e.body.actor.id,
    writer: e.writer.toLowerCase(),
  }));
}

function expiresAfter(expires: string, now: Date): boolean {
  const at = parseTime(expires);
  // A malformed expiry authorizes nothing.
  return at !== null && at.epochMs > now.getTime();
}

/** Grants that are neither revoked nor expired. */
export function liveGrants(entries: readonly LedgerEntry[], now: Date): readonly Grant[] {
  return currentGrants(entries).filter((g) => g.scope.length > 0 && expiresAfter(g.expires, now));
}
