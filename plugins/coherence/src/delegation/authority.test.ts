// Which grant authorizes a resolution: the ledger and the person's record must agree. Each case
// is a way the ledger (reachable by anyone who can write the workspace) might be changed.
import { isArgumentError } from '@vmark/sdk';
import { describe, expect, it } from 'vitest';
import { uuidv7 } from '../kernel/identity/index.js';
import { createEntry, type EntryFactory, type KnownEntry, type LedgerEntry } from '../kernel/ledger/index.js';
import { authorizingGrant, type AuthorityQuestion } from './authority.js';
import type { GrantRecordRead, RecordedGrant } from './grant-record.js';
import type { DelegableScope } from './grants.js';

const NOW = new Date('2026-07-18T09:00:00.000Z');
const LATER = '2026-07-25T09:00:00.000Z';
const MINE = uuidv7();
const THEIRS = uuidv7();
const writerOf = (writer: string): EntryFactory => ({ writer, now: () => NOW, newId: uuidv7 });

function delegation(
  options: { writer?: string; to?: string; scope?: DelegableScope[]; expires?: string; grant?: string } = {},
): KnownEntry<'delegation'> {
  return createEntry(
    'delegation',
    {
      delegation: options.grant ?? uuidv7(),
      actor: { type: 'human', id: 'Ada' },
      delegate: { type: 'external', id: options.to ?? 'claude-code' },
      scope: options.scope ?? ['resolve.accept-newer'],
      expires: options.expires ?? LATER,
      supersedes: null,
    },
    writerOf(options.writer ?? MINE),
  );
}

function revocation(of: KnownEntry<'delegation'>): KnownEntry<'delegation'> {
  return createEntry('delegation', { ...of.body, scope: [], supersedes: of.id }, writerOf(MINE));
}

/** What the person's record holds after `vmark coherence delegate` wrote `entry`. */
function recordOf(entry: KnownEntry<'delegation'>): RecordedGrant {
  return {
    grant: entry.body.delegation,
    entry: entry.id,
    delegate: entry.body.delegate.id,
    scope: entry.body.scope,
    expires: entry.body.expires,
  };
}

const record = (...grants: RecordedGrant[]): GrantRecordRead => ({ readable: true, grants, damaged: [] });

function ask(entries: LedgerEntry[], read: GrantRecordRead, more: Partial<AuthorityQuestion> = {}) {
  return authorizingGrant({
    entries,
    record: read,
    writer: MINE,
    principal: 'claude-code',
    scope: 'resolve.accept-newer',
    now: NOW,
    ...more,
  });
}

/** The refusal's message; fails the test when there is none. */
function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (isArgumentError(error)) return error.message;
    throw error;
  }
  throw new Error('expected a refusal');
}

const DISAGREE = "the ledger and the person's record disagree";

describe('a grant both state alike authorizes', () => {
  it('names the grant the person made', () => {
    const grant = delegation();
    expect(ask([grant], record(recordOf(grant)))).toMatchObject({ grant: grant.body.delegation });
  });

  it('among several agreed grants, names the one expiring last', () => {
    const soon = delegation({ expires: '2026-07-19T00:00:00.000Z' });
    const late = delegation({ expires: '2026-08-01T00:00:00.000Z' });
    expect(ask([soon, late], record(recordOf(soon), recordOf(late))).grant).toBe(late.body.delegation);
  });

  it('refuses with the original message when neither states a grant', () => {
    expect(refusal(() => ask([], record()))).toBe(
      'no live delegation authorizes "claude-code" for resolve.accept-newer',
    );
  });

  it('refuses a grant for another client or another scope, in both', () => {
    const other = delegation({ to: 'cursor' });
    const waive = delegation({ scope: ['resolve.waive'] });
    expect(refusal(() => ask([other, waive], record(recordOf(other), recordOf(waive))))).toBe(
      'no live delegation authorizes "claude-code" for resolve.accept-newer',
    );
  });

  it('refuses a grant both say expired or revoked', () => {
    const old = delegation({ expires: '2026-07-18T08:00:00.000Z' });
    const grant = delegation();
    expect(refusal(() => ask([old, grant, revocation(grant)], record(recordOf(old))))).toMatch(
      /^no live delegation/,
    );
  });
});

describe('a ledger changed behind the person’s back authorizes nothing', () => {
  it('a revocation dropped from the ledger does not revive the grant', () => {
    const grant = delegation();
    // The person revoked it: the record no longer holds it. The ledger lost the revocation line.
    expect(refusal(() => ask([grant], record()))).toContain(
      `${DISAGREE} about grant ${grant.body.delegation} for "claude-code" (resolve.accept-newer): ` +
        "it is live in the ledger but revoked or absent in the person's record",
    );
  });

  it('a delegation appended to the ledger in this installation’s name is refused', () => {
    const real = delegation({ to: 'cursor' });
    const forged = delegation();
    expect(refusal(() => ask([real, forged], record(recordOf(real))))).toContain(DISAGREE);
  });

  it('a forged delegation refuses even beside a real one for the same client', () => {
    const real = delegation();
    const forged = delegation({ expires: '2027-01-01T00:00:00.000Z' });
    expect(refusal(() => ask([real, forged], record(recordOf(real))))).toContain(
      `grant ${forged.body.delegation}`,
    );
  });

  it('a delegation appended in another installation’s name is no authority here', () => {
    const forged = delegation({ writer: THEIRS });
    expect(refusal(() => ask([forged], record()))).toBe(
      'no live delegation authorizes "claude-code" for resolve.accept-newer on this installation: grant ' +
        `${forged.body.delegation} in the ledger was made by another installation (another VMARK_HOME or ` +
        'machine), and a grant authorizes only where it was made',
    );
  });

  it.each([
    ['an expiry pushed later', { expires: '2030-01-01T00:00:00.000Z' }],
    ['a scope widened', { scope: ['resolve.accept-newer', 'resolve.waive'] }],
  ])('a grant rewritten in place (%s) is refused', (_what, change) => {
    const grant = delegation();
    const rewritten = { ...grant, body: { ...grant.body, ...change } };
    expect(refusal(() => ask([rewritten], record(recordOf(grant))))).toContain(
      "its delegate, scope, expiry or entry in the ledger differ from the person's record",
    );
  });

  it('a grant moved to another client in the ledger is refused for that client', () => {
    const grant = delegation({ to: 'cursor' });
    const moved = {
      ...grant,
      body: { ...grant.body, delegate: { type: 'external' as const, id: 'claude-code' } },
    };
    expect(refusal(() => ask([moved], record(recordOf(grant))))).toContain(DISAGREE);
  });

  it('a grant whose entry was replaced by a new one of the same id is refused', () => {
    const grant = delegation();
    const replay = delegation({ grant: grant.body.delegation });
    expect(refusal(() => ask([replay], record(recordOf(grant))))).toContain(DISAGREE);
  });

  it('a grant superseded in another installation’s name is refused, not ignored', () => {
    const grant = delegation();
    const takeover = createEntry(
      'delegation',
      { ...grant.body, expires: '2030-01-01T00:00:00.000Z', supersedes: grant.id },
      writerOf(THEIRS),
    );
    expect(refusal(() => ask([grant, takeover], record(recordOf(grant))))).toContain(
      "it is live in the person's record but revoked, changed or absent in the ledger",
    );
  });

  it('a grant deleted from the ledger, but live in the record, is refused', () => {
    const grant = delegation();
    expect(refusal(() => ask([], record(recordOf(grant))))).toContain(
      "it is live in the person's record but revoked, changed or absent in the ledger",
    );
  });
});

describe('a damaged record authorizes nothing', () => {
  it('a damaged grant file refuses its grant, saying so', () => {
    const grant = delegation();
    const damaged: GrantRecordRead = {
      readable: true,
      grants: [],
      damaged: [{ grant: grant.body.delegation, reason: 'not JSON' }],
    };
    expect(refusal(() => ask([grant], damaged))).toContain("the person's record of it is damaged (not JSON)");
  });

  it('an unreadable record refuses every grant the ledger states', () => {
    const grant = delegation();
    const unreadable: GrantRecordRead = { readable: false, reason: 'EACCES' };
    expect(refusal(() => ask([grant], unreadable))).toContain("the person's record cannot be read (EACCES)");
    expect(refusal(() => ask([], unreadable))).toMatch(/^no live delegation/);
  });

  it('a recorded grant that does not fit the question is no disagreement', () => {
    const grant = delegation();
    const cursor = delegation({ to: 'cursor' });
    // The record holds a grant for another client the ledger lost: it only concerns that client.
    expect(ask([grant], record(recordOf(grant), recordOf(cursor))).grant).toBe(grant.body.delegation);
    expect(
      refusal(() => ask([grant], record(recordOf(grant), recordOf(cursor)), { principal: 'cursor' })),
    ).toContain(DISAGREE);
  });
});
