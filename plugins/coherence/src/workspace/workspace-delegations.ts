/** A person's grants to delegates (ADR 23): in the ledger and in the person's record in `$VMARK_HOME`, kept in step. */
import { createEntry, type EntryFactory, type LedgerEntry } from '../kernel/ledger/index.js';
import { GrantRecordError, type GrantRecord } from '../delegation/grant-record.js';
import { currentGrants, DELEGABLE_SCOPES, type DelegableScope, type Grant } from '../delegation/grants.js';
import type { WorkspaceLedger } from './workspace-ledger.js';

export interface DelegateRequest {
  readonly delegate: string;
  readonly scope: readonly DelegableScope[];
  readonly expires: Date;
  readonly actor: string;
}

/** A grant as `vmark coherence delegations` lists it. */
export interface ListedGrant extends Grant {
  /** Whether this installation's record in `$VMARK_HOME` states it as the ledger does. */
  readonly recorded: boolean;
}

export class WorkspaceDelegations {
  constructor(
    private readonly ledger: WorkspaceLedger,
    /** The person's record of their grants, in `$VMARK_HOME` (ADR 23). */
    private readonly grants: GrantRecord,
  ) {}

  async list(): Promise<readonly ListedGrant[]> {
    const record = await this.grants.read(this.ledger.root);
    const recorded = record.readable ? record.grants : [];
    return currentGrants((await this.ledger.read()).entries).map((g) => ({
      ...g,
      recorded: recorded.some((r) => r.grant === g.grant && r.entry === g.entryId),
    }));
  }

  /**
   * A person's grant (`vmark coherence delegate`); the caller checks the person is at a terminal.
   * Written to the ledger, then to the person's record; when the record cannot take it, the
   * ledger entry is revoked again, so that the two never disagree for longer than a crash.
   */
  async delegate(request: DelegateRequest): Promise<{ grant: string; entryId: string }> {
    const { root, clock, factory } = this.ledger;
    if (request.scope.length === 0) throw new RangeError('a grant needs at least one scope');
    if (request.scope.some((s) => !DELEGABLE_SCOPES.includes(s))) throw new RangeError('unknown scope');
    if (request.delegate.trim() === '') throw new RangeError('a grant needs a delegate');
    if (request.expires.getTime() <= clock.now().getTime())
      throw new RangeError('a grant must expire in the future');
    await this.grants.makeRoom(root, clock.now());
    const grant = clock.newId();
    const entry = createEntry(
      'delegation',
      {
        delegation: grant,
        actor: { type: 'human', id: request.actor },
        delegate: { type: 'external', id: request.delegate },
        scope: [...request.scope],
        expires: request.expires.toISOString(),
        supersedes: null,
      },
      factory,
    );
    await this.ledger.append([entry]);
    try {
      await this.grants.add(root, {
        grant,
        entry: entry.id,
        delegate: request.delegate,
        scope: [...request.scope],
        expires: entry.body.expires,
      });
    } catch (error) {
      await this.ledger.append([revocationOf(currentGrants([entry])[0]!, request.actor, factory)]);
      const why = error instanceof Error ? error.message : String(error);
      throw new GrantRecordError(
        `the grant could not be recorded in VMARK_HOME (${why}), so it was revoked in the ledger again`,
        { cause: error },
      );
    }
    return { grant, entryId: entry.id };
  }

  /**
   * Revocation, in the person's record first (so it holds even if the ledger append fails), then
   * in the ledger: a superseding entry with an empty scope. Revokes a grant live in either.
   * @returns null when neither knows a live grant of that id; `entryId` null when only the record did.
   */
  async revoke(grantId: string, actor: string): Promise<{ grant: string; entryId: string | null } | null> {
    const id = grantId.toLowerCase();
    const current = currentGrants((await this.ledger.read()).entries).find((g) => g.grant === id);
    const inRecord = await this.grants.remove(this.ledger.root, id);
    const live = current !== undefined && current.scope.length > 0;
    if (!live) return inRecord ? { grant: id, entryId: null } : null;
    const entry = revocationOf(current, actor, this.ledger.factory);
    await this.ledger.append([entry]);
    return { grant: current.grant, entryId: entry.id };
  }
}

/** The entry that revokes `grant`: it supersedes the grant's current entry with an empty scope. */
function revocationOf(grant: Grant, actor: string, factory: EntryFactory): LedgerEntry {
  return createEntry(
    'delegation',
    {
      delegation: grant.grant,
      actor: { type: 'human', id: actor },
      delegate: { type: 'external', id: grant.delegate },
      scope: [],
      expires: grant.expires,
      supersedes: grant.entryId,
    },
    factory,
  );
}
