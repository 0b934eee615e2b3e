import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { LedgerEntry } from '../ledger/index.js';
import { IMPLICIT_DEFAULT_CONTEXT, resolveContext } from './contexts.js';
import { breakdown, EDGE_STATES, projectEdges, type EdgeRow } from './project-edge.js';

const uuid = (n: number): string => `0190a000-0000-7000-8000-${n.toString(16).padStart(12, '0')}`;
const rev = (n: number): string => `rev1:${n.toString(16).padStart(64, '0')}`;
const HASH = `sha256:${'1'.repeat(64)}`;
const WRITER = uuid(0xfff);
const NOW = new Date('2026-07-18T12:00:00.000Z');
const EMPTY_FEED = `sha256:${createHash('sha256').update('').digest('hex')}`;
const NIL = '00000000-0000-0000-0000-000000000000';

const U = uuid(0xa1);
const D = uuid(0xb1);
const [u1, u2, u2b, d1, d2] = [rev(1), rev(2), rev(3), rev(11), rev(12)];

let seq = 0;
/** Each builder call gets a later time, so literal order is reader order. */
function envelope(kind: string, body: Record<string, unknown>, id?: string): LedgerEntry {
  seq += 1;
  const entryId = id ?? uuid(0x1000 + seq);
  const time = new Date(Date.UTC(2026, 6, 18, 9, 0, seq)).toISOString();
  return { format: 0, id: entryId, kind, time, writer: WRITER, idem: uuid(0x5000 + seq), body };
}

interface In {
  readonly object: string;
  readonly revision: string;
  readonly role?: 'direct' | 'contextual';
  readonly kind?: string;
}

function txf(
  id: string,
  inputs: readonly In[],
  output: { object: string; revision: string; parents: string[] },
): LedgerEntry {
  return envelope(
    'transformation',
    {
      inputs: inputs.map((i) => ({ role: 'direct', ...i })),
      outputs: [{ ...output, content_hash: HASH }],
      agent: { type: 'model', id: 'm' },
      intent: { kind: 'edit', summary: 's' },
      confidence: 'inferred',
    },
    id,
  );
}

/** A bare revision (no inputs), e.g. a human save of the upstream. */
const save = (object: string, revision: string, parents: string[] = []): LedgerEntry =>
  txf(uuid(0x9000 + ++seq), [], { object, revision, parents });

function resolution(
  kind: 'ratification' | 'waiver',
  txfId: string,
  against: string,
  expires: string | null = null,
): LedgerEntry {
  return envelope(kind, {
    edge: { txf: txfId, input: 0 },
    upstream_object: U,
    pinned: u1,
    resolved_against: against,
    actor: { type: 'human', id: 'elena' },
    reason: kind === 'waiver' ? 'cosmetic' : null,
    expires,
  });
}

function check(
  txfId: string,
  pinned: string,
  against: string,
  verdict: 'no-contradiction' | 'contradiction' | 'unknown',
  context = NIL,
  fingerprint = EMPTY_FEED,
): LedgerEntry {
  return envelope('check-result', {
    edge: { txf: txfId, input: 0 },
    pinned,
    checked_against: against,
    verdict,
    model: 'm',
    prompt_version: 'check-v1',
    evidence: [],
    confidence: 0.95,
    context,
    claims_fingerprint: fingerprint,
  });
}

function claim(
  claimId: string,
  opts: { supersedes?: string; maturity?: 'draft' | 'established'; id?: string } = {},
): LedgerEntry {
  return envelope(
    'claim',
    {
      claim: claimId,
      statement: 'Elena is left-handed',
      valid_at: '2026-07-18T09:00:00.000Z',
      invalid_at: null,
      established_by: [],
      supersedes: opts.supersedes ?? null,
      maturity: opts.maturity ?? 'established',
      actor: { type: 'human', id: 'elena' },
    },
    opts.id,
  );
}

const T = uuid(0x7001);
/** U: u1 → u2; D@d1 produced by T reading U at `pinned`. */
const base = (pinned: string, kind?: string): LedgerEntry[] => [
  save(U, u1),
  save(U, u2, [u1]),
  txf(T, [{ object: U, revision: pinned, ...(kind ? { kind } : {}) }], {
    object: D,
    revision: d1,
    parents: [],
  }),
];

function rowOf(entries: readonly LedgerEntry[], context = IMPLICIT_DEFAULT_CONTEXT): EdgeRow {
  const rows = projectEdges(entries, context, NOW).filter((r) => r.txf === T);
  expect(rows).toHaveLength(1);
  const [row] = rows;
  if (!row) throw new Error('no row');
  return row;
}

const pinU = (revision: string): ReturnType<typeof resolveContext> =>
  resolveContext(uuid(0xc1), [
    { format: 0, id: uuid(0xc1), name: 'draft', parent: null, selections: { [U]: revision } },
  ]);

describe('projectEdges — the eleven states', () => {
  const reached = new Set<string>();
  const expectState = (row: EdgeRow, state: EdgeRow['state']): void => {
    expect(row.state).toBe(state);
    reached.add(row.state);
  };

  it('fresh when the pin equals the selection', () => expectState(rowOf(base(u2)), 'fresh'));

  it('version-stale when the pin is a strict ancestor and no check exists', () => {
    const row = rowOf(base(u1));
    expectState(row, 'version-stale');
    expect(row).toMatchObject({
      upstream: U,
      pinned: u1,
      downstream: D,
      downstream_rev: d1,
      live: true,
      kind: 'dependency',
      confidence: 'inferred',
      prior_waivers: 0,
    });
  });

  it('fresh-ahead when the context pins the upstream behind the edge', () =>
    expectState(rowOf(base(u2), pinU(u1)), 'fresh-ahead'));

  it('a pinned selection in a context overrides live', () => {
    expect(rowOf(base(u1)).state).toBe('version-stale');
    expect(rowOf(base(u1), pinU(u1)).state).toBe('fresh');
  });

  it('diverged when pin and selection are on sibling branches', () => {
    expectState(rowOf([...base(u2), save(U, u2b, [u1])], pinU(u2b)), 'diverged');
  });

  it('diverged-multi-head when the live upstream has two heads', () => {
    expectState(rowOf([...base(u1), save(U, u2b, [u1])]), 'diverged-multi-head');
  });

  it('unpinnable for an unknown pin and for an absent upstream', () => {
    expectState(rowOf(base(u1), pinU(rev(99))), 'unpinnable');
    const absent = [
      txf(T, [{ object: uuid(0xdead), revision: u1 }], { object: D, revision: d1, parents: [] }),
    ];
    expectState(rowOf(absent), 'unpinnable');
  });

  it('fresh-ratified by a ratification against the selection', () => {
    expectState(rowOf([...base(u1), resolution('ratification', T, u2)]), 'fresh-ratified');
  });

  it('a ratification against another revision does not apply', () => {
    expect(rowOf([...base(u1), resolution('ratification', T, u1)]).state).toBe('version-stale');
  });

  it('waived by an unexpired waiver; counted in prior_waivers', () => {
    const row = rowOf([...base(u1), resolution('waiver', T, u2, '2026-07-19T00:00:00.000Z')]);
    expectState(row, 'waived');
    expect(row.prior_waivers).toBe(1);
    expect(rowOf([...base(u1), resolution('waiver', T, u2, null)]).state).toBe('waived');
  });

  it('an expired waiver falls through to version-stale, even over an older ratification', () => {
    const row = rowOf([
      ...base(u1),
      resolution('ratification', T, u2),
      resolution('waiver', T, u2, '2026-07-18T11:59:59.999Z'),
    ]);
    expect(row.state).toBe('version-stale');
    expect(row.prior_waivers).toBe(1);
  });

  it('a waiver expiring exactly now is expired', () => {
    expect(rowOf([...base(u1), resolution('waiver', T, u2, NOW.toISOString())]).state).toBe('version-stale');
  });

  it('a malformed expiry counts as expired', () => {
    expect(rowOf([...base(u1), resolution('waiver', T, u2, 'next tuesday')]).state).toBe('version-stale');
  });

  it('stale-valid / stale-contradicted / stale-unknown from the latest live check', () => {
    expectState(rowOf([...base(u1), check(T, u1, u2, 'no-contradiction')]), 'stale-valid');
    expectState(rowOf([...base(u1), check(T, u1, u2, 'contradiction')]), 'stale-contradicted');
    expectState(
      rowOf([...base(u1), check(T, u1, u2, 'contradiction'), check(T, u1, u2, 'unknown')]),
      'stale-unknown',
    );
  });

  it('ignores checks of another comparison or another context', () => {
    expect(rowOf([...base(u1), check(T, u1, u1, 'contradiction')]).state).toBe('version-stale');
    expect(rowOf([...base(u1), check(T, u1, u2, 'contradiction', uuid(0xc9))]).state).toBe('version-stale');
  });

  it('reaches every state', () => {
    expect([...reached].sort()).toEqual([...EDGE_STATES].sort());
  });
});

describe('projectEdges — liveness, kinds, claims feed', () => {
  it('non-propagating kinds are fresh, but structural states still surface', () => {
    for (const kind of ['conformance', 'supersession', 'part-of', 'mention']) {
      expect(rowOf(base(u1, kind)).state).toBe('fresh');
    }
    expect(rowOf([...base(u1, 'mention'), save(U, u2b, [u1])]).state).toBe('diverged-multi-head');
  });

  it('a superseded downstream revision retires its edge', () => {
    const entries = [...base(u1), save(D, d2, [d1])];
    const row = rowOf(entries);
    expect(row.live).toBe(false);
    expect(row.state).toBe('version-stale');
    expect(breakdown(projectEdges(entries, IMPLICIT_DEFAULT_CONTEXT, NOW))).toEqual([]);
  });

  it('contextual inputs are not edges', () => {
    const entries = [
      save(U, u1),
      txf(T, [{ object: U, revision: u1, role: 'contextual' }], { object: D, revision: d1, parents: [] }),
    ];
    expect(projectEdges(entries, IMPLICIT_DEFAULT_CONTEXT, NOW)).toEqual([]);
  });

  it('a check-result goes stale when the claims feed changes', () => {
    const C = uuid(0xc2);
    const K = uuid(0xee1);
    const ctx = resolveContext(C, [{ format: 0, id: C, name: 'canon', parent: null, visible_claims: [K] }]);
    const first = claim(K, { id: uuid(0xe01) });
    const fp = `sha256:${createHash('sha256')
      .update(`${K}=${uuid(0xe01)}\n`)
      .digest('hex')}`;
    const entries = [...base(u1), first, check(T, u1, u2, 'no-contradiction', C, fp)];
    expect(rowOf(entries, ctx).state).toBe('stale-valid');
    const corrected = [...entries, claim(K, { supersedes: uuid(0xe01) })];
    expect(rowOf(corrected, ctx).state).toBe('version-stale');
  });

  it('breakdown keeps live non-fresh rows in ledger order', () => {
    const T2 = uuid(0x7002);
    const D2 = uuid(0xb2);
    const entries = [
      ...base(u1),
      txf(
        T2,
        [
          { object: U, revision: u2 },
          { object: U, revision: u1 },
        ],
        { object: D2, revision: rev(21), parents: [] },
      ),
    ];
    const rows = breakdown(projectEdges(entries, IMPLICIT_DEFAULT_CONTEXT, NOW));
    expect(rows.map((r) => [r.txf, r.input, r.state])).toEqual([
      [T, 0, 'version-stale'],
      [T2, 1, 'version-stale'],
    ]);
  });

  it('the result does not depend on the order entries are passed in', () => {
    const entries = [...base(u1), resolution('waiver', T, u2), check(T, u1, u2, 'contradiction')];
    const a = projectEdges(entries, IMPLICIT_DEFAULT_CONTEXT, NOW);
    const b = projectEdges([...entries].reverse(), IMPLICIT_DEFAULT_CONTEXT, NOW);
    expect(b).toEqual(a);
  });
});
