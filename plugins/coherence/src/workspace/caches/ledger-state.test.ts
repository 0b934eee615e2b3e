import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { LedgerEntry, LedgerTailRead } from '../../kernel/ledger/index.js';
import { IMPLICIT_DEFAULT_CONTEXT, projectEdges, resolveContext } from '../../kernel/projection/index.js';
import { buildObjectIndex } from '../../kernel/scan/index.js';
import { LedgerState } from './ledger-state.js';

const uuid = (n: number): string => `0190a000-0000-7000-8000-${n.toString(16).padStart(12, '0')}`;
const rev = (n: number): string => `rev1:${n.toString(16).padStart(64, '0')}`;
const hash = (n: number): string => `sha256:${n.toString(16).padStart(64, '0')}`;
const OBJECTS = [uuid(0xa1), uuid(0xa2), uuid(0xa3), uuid(0xa4)];
const T0 = Date.UTC(2026, 6, 18, 9, 0, 0);
const MINUTE = 60_000;

/** One step of a random history, turned into ledger entries by `History`. */
type Step =
  | {
      readonly t: 'rev';
      readonly obj: number;
      readonly fork: boolean;
      readonly inputs: readonly [number, boolean][];
    }
  | {
      readonly t: 'resolve';
      readonly waiver: boolean;
      readonly edge: number;
      readonly expiresIn: number | null;
    }
  | {
      readonly t: 'check';
      readonly edge: number;
      readonly verdict: 'no-contradiction' | 'contradiction' | 'unknown';
    }
  | { readonly t: 'claim'; readonly claim: number }
  | { readonly t: 'register'; readonly obj: number; readonly path: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    arbitrary: fc.record({
      t: fc.constant('rev' as const),
      obj: fc.nat(3),
      fork: fc.boolean(),
      inputs: fc.array(fc.tuple(fc.nat(3), fc.boolean()), { maxLength: 3 }),
    }),
    weight: 5,
  },
  fc.record({
    t: fc.constant('resolve' as const),
    waiver: fc.boolean(),
    edge: fc.nat(20),
    expiresIn: fc.option(fc.integer({ min: 1, max: 30 })),
  }),
  fc.record({
    t: fc.constant('check' as const),
    edge: fc.nat(20),
    verdict: fc.constantFrom('no-contradiction' as const, 'contradiction' as const, 'unknown' as const),
  }),
  fc.record({ t: fc.constant('claim' as const), claim: fc.nat(1) }),
  fc.record({ t: fc.constant('register' as const), obj: fc.nat(3), path: fc.nat(3) }),
);

/** Turns steps into entries, each a minute after the one before (so they append in order). */
class History {
  readonly entries: LedgerEntry[] = [];
  readonly #heads = OBJECTS.map((): string[] => []);
  readonly #all = OBJECTS.map((): string[] => []);
  readonly #edges: { txf: string; input: number; object: number; pinned: string }[] = [];
  #n = 0;

  time(): number {
    return T0 + this.#n * MINUTE;
  }

  add(s: Step): void {
    const n = ++this.#n;
    const entry = (kind: string, body: Record<string, unknown>): LedgerEntry => ({
      format: 0,
      id: uuid(0x10000 + n),
      kind,
      time: new Date(T0 + n * MINUTE).toISOString(),
      writer: uuid(0xfff),
      idem: uuid(0x50000 + n),
      body,
    });
    const edge =
      this.#edges[s.t === 'resolve' || s.t === 'check' ? s.edge % Math.max(1, this.#edges.length) : 0];
    if (s.t === 'rev') {
      const heads = this.#heads[s.obj] as string[];
      // A fork leaves the current head standing beside the new revision.
      const parents = s.fork ? heads.slice(0, 1) : [...heads];
      const revision = rev(n);
      const inputs = s.inputs.map(([obj, old]) => {
        const known = this.#all[obj] as string[];
        const revision = (old ? known[0] : known[known.length - 1]) ?? rev(0xdead);
        return { object: OBJECTS[obj] as string, revision, role: 'direct' };
      });
      const txf = uuid(0x10000 + n);
      inputs.forEach((input, i) =>
        this.#edges.push({ txf, input: i, object: OBJECTS.indexOf(input.object), pinned: input.revision }),
      );
      this.entries.push(
        entry('transformation', {
          inputs,
          outputs: [{ object: OBJECTS[s.obj], revision, content_hash: hash(n), parents }],
          agent: { type: 'model' },
          intent: { kind: 'edit', summary: 's' },
          confidence: 'inferred',
        }),
      );
      this.#heads[s.obj] = s.fork ? [...heads, revision] : [revision];
      (this.#all[s.obj] as string[]).push(revision);
    } else if (s.t === 'resolve' && edge !== undefined) {
      const against = (this.#heads[edge.object] as string[])[0] ?? rev(0xbeef);
      this.entries.push(
        entry(s.waiver ? 'waiver' : 'ratification', {
          edge: { txf: edge.txf, input: edge.input },
          upstream_object: OBJECTS[edge.object],
          pinned: edge.pinned,
          resolved_against: against,
          actor: { type: 'human', id: 'h' },
          reason: s.waiver ? 'r' : null,
          expires: s.expiresIn === null ? null : new Date(T0 + (n + s.expiresIn) * MINUTE).toISOString(),
        }),
      );
    } else if (s.t === 'check' && edge !== undefined) {
      this.entries.push(
        entry('check-result', {
          edge: { txf: edge.txf, input: edge.input },
          pinned: edge.pinned,
          checked_against: (this.#heads[edge.object] as string[])[0] ?? rev(0xbeef),
          verdict: s.verdict,
          model: 'm',
          prompt_version: 'check-v1',
          evidence: [],
          confidence: 0.95,
          context: '00000000-0000-0000-0000-000000000000',
          claims_fingerprint: `sha256:${'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'}`,
        }),
      );
    } else if (s.t === 'claim') {
      this.entries.push(
        entry('claim', {
          claim: uuid(0xc0 + s.claim),
          statement: 's',
          valid_at: '2026-07-18T09:00:00.000Z',
          invalid_at: null,
          established_by: [],
          supersedes: null,
          maturity: 'established',
          actor: { type: 'human', id: 'h' },
        }),
      );
    } else if (s.t === 'register') {
      this.entries.push(
        entry('object-registered', {
          object: OBJECTS[s.obj],
          path: `p${s.path}.md`,
          schema: null,
          derived_from: [],
        }),
      );
    }
  }
}

describe('LedgerState', () => {
  it('grown append by append, answers as the projection and object index made of the whole ledger', () => {
    const context = resolveContext('00000000-0000-0000-0000-0000000000c1', [
      {
        format: 0,
        id: '00000000-0000-0000-0000-0000000000c1',
        name: 'c',
        parent: null,
        visible_claims: [uuid(0xc0)],
      },
    ]);
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.array(step, { minLength: 1, maxLength: 6 }), fc.boolean(), fc.nat(40)), {
          maxLength: 12,
        }),
        fc.boolean(),
        (chunks, claimsContext) => {
          const history = new History();
          let now = T0;
          const state = new LedgerState(() => new Date(now));
          const ctx = claimsContext ? context : IMPLICIT_DEFAULT_CONTEXT;
          let read: LedgerTailRead | undefined;
          const observed = new Map<string, string>();
          for (const [steps, told, wait] of chunks) {
            const before = history.entries.length;
            for (const s of steps) history.add(s);
            now = Math.max(now, history.time()) + wait * MINUTE;
            const entries = history.entries.slice();
            const version = (read?.version ?? 0) + 1;
            // Sometimes the append is not told as one (a full reread): the state is made anew.
            const appended =
              told && read !== undefined
                ? { after: read.version, entries: entries.slice(before) }
                : undefined;
            read = {
              entries,
              quarantined: 0,
              futureFormat: 0,
              segments: [],
              version,
              ...(appended && { appended }),
            };
            if (wait % 3 === 0) state.follow(read);
            if (wait % 5 === 0) observed.set(OBJECTS[wait % 4] as string, `moved-${wait}.md`);
            expect(state.edges(read, ctx)).toEqual(projectEdges(entries, ctx, new Date(now)));
            expect(state.objectIndex(read, observed)).toEqual(
              buildObjectIndex(entries, { observedPaths: observed }),
            );
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
