/**
 * Claim lifecycle view (vmark-notes §7.3 `claim`): which entry is current per claim, which
 * claims are fed to checks in a context, and the claims fingerprint a check-result records.
 */
import { createHash } from 'node:crypto';
import { compareEntries, isKind, type LedgerEntry } from '../ledger/index.js';
import { IMPLICIT_DEFAULT_CONTEXT, type ResolvedContext } from './contexts.js';
import { normUuid } from './revision-graph.js';

export interface ClaimEntry {
  readonly claim: string;
  readonly entryId: string;
  readonly statement: string;
  readonly maturity: 'draft' | 'established';
  readonly invalidAt: string | null;
  readonly supersedes: string | null;
}

export interface ClaimStore {
  /** Current entry of each claim, in reader order of those entries. */
  readonly current: readonly ClaimEntry[];
  currentOf(claim: string): ClaimEntry | undefined;
}

export function buildClaimStore(entries: readonly LedgerEntry[]): ClaimStore {
  const ordered = [...entries].sort(compareEntries);
  const byClaim = new Map<string, ClaimEntry[]>();
  for (const entry of ordered) {
    if (!isKind(entry, 'claim')) continue;
    const b = entry.body;
    const parsed: ClaimEntry = {
      claim: normUuid(b.claim),
      entryId: normUuid(entry.id),
      statement: b.statement,
      // An unrecognized maturity must never gain the power to constrain: read it as draft.
      maturity: b.maturity === 'established' ? 'established' : 'draft',
      invalidAt: b.invalid_at ?? null,
      supersedes: b.supersedes ? normUuid(b.supersedes) : null,
    };
    const list = byClaim.get(parsed.claim);
    if (list) list.push(parsed);
    else byClaim.set(parsed.claim, [parsed]);
  }
  const currentByClaim = new Map<string, ClaimEntry>();
  const order: ClaimEntry[] = [];
  for (const [claim, list] of byClaim) {
    // Supersession is scoped to the claim's own entries, as in the original store.
    const superseded = new Set(list.flatMap((e) => (e.supersedes ? [e.supersedes] : [])));
    // Two entries superseding the same predecessor both survive; the latest in reader order
    // is current (the list is in reader order, so search from its end).
    const current = [...list].reverse().find((e) => !superseded.has(e.entryId));
    if (current) {
      currentByClaim.set(claim, current);
      order.push(current);
    }
  }
  const readerIndex = new Map<string, number>();
  ordered.forEach((e, i) => readerIndex.set(normUuid(e.id), i));
  order.sort((a, b) => (readerIndex.get(a.entryId) ?? 0) - (readerIndex.get(b.entryId) ?? 0));
  return { current: order, currentOf: (claim) => currentByClaim.get(normUuid(claim)) };
}

/** Fed to checks iff established ∧ visible in the context ∧ current ∧ not invalidated. */
export function fedClaims(store: ClaimStore, visibleClaims: readonly string[]): readonly ClaimEntry[] {
  const fed: ClaimEntry[] = [];
  for (const claim of new Set(visibleClaims.map(normUuid))) {
    const e = store.currentOf(claim);
    if (e && e.maturity === 'established' && e.invalidAt === null) fed.push(e);
  }
  return fed.sort((a, b) => (a.claim < b.claim ? -1 : a.claim > b.claim ? 1 : 0));
}

/**
 * `"sha256:" + hex(SHA-256(Σ "<claim id>=<current entry id>\n"))` over the fed claims sorted
 * by claim id (lower-case hyphenated UUIDs, as the original's `Uuid` prints them); an empty
 * feed hashes the empty string.
 */
export function claimsFingerprint(store: ClaimStore, visibleClaims: readonly string[]): string {
  const hash = createHash('sha256');
  for (const e of fedClaims(store, visibleClaims)) hash.update(`${e.claim}=${e.entryId}\n`, 'utf8');
  return `sha256:${hash.digest('hex')}`;
}

export interface CurrentClaimRow {
  readonly claim: string;
  readonly entryId: string;
  readonly statement: string;
  readonly maturity: 'draft' | 'established';
  readonly invalidAt: string | null;
  /** In the context's effective visible claims. */
  readonly visible: boolean;
}

/** Every claim's current entry, with its visibility in `context` (the default context unless given). */
export function currentClaims(
  entries: readonly LedgerEntry[],
  context: ResolvedContext = IMPLICIT_DEFAULT_CONTEXT,
): readonly CurrentClaimRow[] {
  const visible = new Set(context.visibleClaims.map(normUuid));
  return buildClaimStore(entries).current.map((e) => ({
    claim: e.claim,
    entryId: e.entryId,
    statement: e.statement,
    maturity: e.maturity,
    invalidAt: e.invalidAt,
    visible: visible.has(e.claim),
  }));
}
