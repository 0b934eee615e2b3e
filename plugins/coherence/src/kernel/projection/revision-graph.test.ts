import { describe, expect, it } from 'vitest';
import type { LedgerEntry } from '../ledger/index.js';
import { buildRevisionGraph } from './revision-graph.js';

const uuid = (n: number): string => `0190a000-0000-7000-8000-${n.toString(16).padStart(12, '0')}`;
const rev = (n: number): string => `rev1:${n.toString(16).padStart(64, '0')}`;
const U = uuid(0xa1);

let seq = 0;
function txf(id: string, outputs: { object: string; revision: string; parents: string[] }[]): LedgerEntry {
  seq += 1;
  return {
    format: 0,
    id,
    kind: 'transformation',
    time: new Date(Date.UTC(2026, 6, 18, 9, 0, seq)).toISOString(),
    writer: uuid(0xfff),
    idem: uuid(0x5000 + seq),
    body: {
      inputs: [],
      outputs: outputs.map((o) => ({ ...o, content_hash: `sha256:${'1'.repeat(64)}` })),
      agent: { type: 'human' },
      intent: { kind: 'save', summary: '' },
      confidence: 'exact',
    },
  };
}

describe('buildRevisionGraph', () => {
  const entries = [
    txf(uuid(1), [{ object: U, revision: rev(1), parents: [] }]),
    txf(uuid(2), [{ object: U, revision: rev(2), parents: [rev(1)] }]),
    txf(uuid(3), [{ object: U, revision: rev(3), parents: [rev(1)] }]),
    txf(uuid(4), [{ object: U, revision: rev(4), parents: [rev(2), rev(3)] }]),
  ];

  it('heads are revisions with no child; a merge closes a fork', () => {
    expect(buildRevisionGraph(entries.slice(0, 3)).heads(U)).toEqual([rev(2), rev(3)]);
    expect(buildRevisionGraph(entries).heads(U)).toEqual([rev(4)]);
    expect(buildRevisionGraph(entries).heads(uuid(0xdead))).toEqual([]);
  });

  it('strict ancestry by BFS over parents, never reflexive', () => {
    const g = buildRevisionGraph(entries);
    expect(g.isStrictAncestor(U, rev(1), rev(4))).toBe(true);
    expect(g.isStrictAncestor(U, rev(3), rev(4))).toBe(true);
    expect(g.isStrictAncestor(U, rev(4), rev(1))).toBe(false);
    expect(g.isStrictAncestor(U, rev(2), rev(3))).toBe(false);
    expect(g.isStrictAncestor(U, rev(4), rev(4))).toBe(false);
  });

  it('records what each transformation produced, ignoring input order of the ledger', () => {
    const g = buildRevisionGraph([...entries].reverse());
    expect(g.producedBy(uuid(4))).toEqual([{ object: U, revision: rev(4) }]);
    expect(g.parentsOf(U, rev(4))).toEqual([rev(2), rev(3)]);
    expect(g.revisions(U)).toEqual([rev(1), rev(2), rev(3), rev(4)]);
    expect(g.has(U, rev(9))).toBe(false);
  });
});
