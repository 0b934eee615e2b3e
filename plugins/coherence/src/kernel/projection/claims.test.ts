import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { LedgerEntry } from '../ledger/index.js';
import { buildClaimStore, claimsFingerprint, currentClaims, fedClaims } from './claims.js';
import { resolveContext } from './contexts.js';

const uuid = (n: number): string => `0190a000-0000-7000-8000-${n.toString(16).padStart(12, '0')}`;
const NIL = '00000000-0000-0000-0000-000000000000';
const [K1, K2] = [uuid(0xe1), uuid(0xe2)];

let seq = 0;
function claim(
  claimId: string,
  id: string,
  opts: {
    supersedes?: string;
    maturity?: 'draft' | 'established';
    invalidAt?: string;
    statement?: string;
  } = {},
): LedgerEntry {
  seq += 1;
  return {
    format: 0,
    id,
    kind: 'claim',
    time: new Date(Date.UTC(2026, 6, 18, 9, 0, seq)).toISOString(),
    writer: uuid(0xfff),
    idem: uuid(0x5000 + seq),
    body: {
      claim: claimId,
      statement: opts.statement ?? 's',
      valid_at: '2026-07-18T09:00:00.000Z',
      invalid_at: opts.invalidAt ?? null,
      established_by: [],
      supersedes: opts.supersedes ?? null,
      maturity: opts.maturity ?? 'established',
      actor: { type: 'human', id: 'elena' },
    },
  };
}
const sha = (text: string): string => `sha256:${createHash('sha256').update(text).digest('hex')}`;

describe('claims', () => {
  it('supersession: the entry nobody supersedes is current', () => {
    const entries = [
      claim(K1, uuid(1), { maturity: 'draft' }),
      claim(K1, uuid(2), { supersedes: uuid(1) }),
      claim(K1, uuid(3), { supersedes: uuid(2), statement: 'corrected' }),
    ];
    expect(buildClaimStore(entries).currentOf(K1)).toMatchObject({
      entryId: uuid(3),
      statement: 'corrected',
    });
  });

  it('concurrent supersession: the later in reader order is current', () => {
    const entries = [
      claim(K1, uuid(1)),
      claim(K1, uuid(3), { supersedes: uuid(1) }),
      claim(K1, uuid(2), { supersedes: uuid(1) }),
    ];
    expect(buildClaimStore(entries).currentOf(K1)?.entryId).toBe(uuid(2));
  });

  it('the feed: established, visible, current, not retired; fingerprint over sorted pairs', () => {
    const entries = [
      claim(K2, uuid(5)),
      claim(K1, uuid(1)),
      claim(uuid(0xe3), uuid(7), { maturity: 'draft' }),
      claim(uuid(0xe4), uuid(8)),
      claim(uuid(0xe4), uuid(9), { supersedes: uuid(8), invalidAt: '2026-07-18T10:00:00.000Z' }),
    ];
    const store = buildClaimStore(entries);
    const visible = [K2, K1, uuid(0xe3), uuid(0xe4)];
    expect(fedClaims(store, visible).map((e) => e.claim)).toEqual([K1, K2]);
    expect(claimsFingerprint(store, visible)).toBe(sha(`${K1}=${uuid(1)}\n${K2}=${uuid(5)}\n`));
    expect(claimsFingerprint(store, [])).toBe(sha(''));
  });

  it('retirement drops a claim from the feed but it stays listed as current', () => {
    const entries = [
      claim(K1, uuid(1)),
      claim(K1, uuid(2), { supersedes: uuid(1), invalidAt: '2026-07-18T10:00:00.000Z' }),
    ];
    expect(fedClaims(buildClaimStore(entries), [K1])).toEqual([]);
    expect(currentClaims(entries)).toEqual([
      {
        claim: K1,
        entryId: uuid(2),
        statement: 's',
        maturity: 'established',
        invalidAt: '2026-07-18T10:00:00.000Z',
        visible: false,
      },
    ]);
  });

  it('currentClaims marks visibility in the given context', () => {
    const entries = [claim(K1, uuid(1)), claim(K2, uuid(2))];
    const ctx = resolveContext(NIL, [
      { format: 0, id: NIL, name: 'default', parent: null, visible_claims: [K2] },
    ]);
    expect(currentClaims(entries, ctx).map((c) => [c.claim, c.visible])).toEqual([
      [K1, false],
      [K2, true],
    ]);
  });
});
