import { describe, expect, it } from 'vitest';
import { contentHashOfBytes, revisionId } from '../identity/index.js';
import type { GitClassification } from './git-classifier.js';
import type { KnownObject, ObjectIndex } from './object-index.js';
import { observationIdem, planReconciliation, type PlanOptions } from './reconcile.js';
import type { WorkspaceFile } from './walk-workspace.js';

const WRITER = '0190b000-0000-7000-8000-00000000000f';
const A = '0190b000-0000-7000-8000-0000000000a1';
const B = '0190b000-0000-7000-8000-0000000000b1';
const NOW = new Date(Date.UTC(2026, 6, 18, 10, 0, 0, 0));

function options(extra: Partial<PlanOptions> = {}): PlanOptions {
  let n = 0;
  return {
    writer: WRITER,
    newId: () => `0190b000-0000-7000-8000-${(0x9000 + ++n).toString(16).padStart(12, '0')}`,
    now: () => NOW,
    ...extra,
  };
}

const doc = (id: string | null, body: string, schema?: string): string =>
  id === null
    ? body
    : `---\ntitle: T\nvmark:\n  id: ${id}\n${schema === undefined ? '' : `  schema: ${schema}\n`}---\n${body}`;
const file = (path: string, text: string): WorkspaceFile => ({ path, bytes: new TextEncoder().encode(text) });
const hashOf = (text: string): string => contentHashOfBytes(new TextEncoder().encode(text));

/** A known object whose single head recorded `text` as a root revision. */
function knownAt(object: string, path: string | null, text: string): KnownObject {
  const contentHash = hashOf(text);
  return {
    object,
    path,
    schema: null,
    heads: [{ revision: revisionId(contentHash, []), contentHash }],
    contentHashes: new Set([contentHash]),
  };
}
const index = (...objects: KnownObject[]): ObjectIndex => new Map(objects.map((o) => [o.object, o]));

describe('planReconciliation', () => {
  const v1 = doc(A, 'Elena, v1\n');

  it('plans nothing for an unchanged known object at its known path', () => {
    const plan = planReconciliation([file('elena.md', v1)], index(knownAt(A, 'elena.md', v1)), options());
    expect(plan).toEqual({ entries: [], diagnostics: [], moves: [], absent: [], unverified: [], held: [] });
  });

  it('ignores the identity lines when comparing: the hash is of the masked text', () => {
    const relabelled = doc(A, 'Elena, v1\n', 'character');
    const plan = planReconciliation(
      [file('elena.md', relabelled)],
      index(knownAt(A, 'elena.md', v1)),
      options(),
    );
    expect(plan.entries).toEqual([]);
  });

  it('records a changed object as one observed-external transformation on its head', () => {
    const known = knownAt(A, 'elena.md', v1);
    const head = known.heads[0]?.revision ?? '';
    const v2 = doc(A, 'Elena, v2\n');
    const plan = planReconciliation([file('elena.md', v2)], index(known), options());
    const revision = revisionId(hashOf(v2), [head]);
    expect(plan.entries).toEqual([
      {
        format: 0,
        id: '0190b000-0000-7000-8000-000000009001',
        kind: 'transformation',
        time: '2026-07-18T10:00:00.000Z',
        writer: WRITER,
        idem: observationIdem(['transformation', A, revision]),
        body: {
          inputs: [],
          outputs: [{ object: A, revision, content_hash: hashOf(v2), parents: [head] }],
          agent: { type: 'external' },
          intent: { kind: 'observed-external', summary: 'external edit observed: elena.md' },
          confidence: 'unknown',
        },
      },
    ]);
    expect(plan.moves).toEqual([]);
  });

  it('reports a move without an entry, and a move with a change as both', () => {
    const known = index(knownAt(A, 'elena.md', v1));
    const moved = planReconciliation([file('cast/elena.md', v1)], known, options());
    expect(moved.entries).toEqual([]);
    expect(moved.moves).toEqual([{ object: A, from: 'elena.md', to: 'cast/elena.md' }]);
    expect(moved.absent).toEqual([]);
    const both = planReconciliation([file('cast/elena.md', doc(A, 'v2\n'))], known, options());
    expect(both.moves).toHaveLength(1);
    expect(both.entries.map((e) => e.kind)).toEqual(['transformation']);
  });

  it('reports a path learned for an object the ledger had no path for as a move from null', () => {
    const plan = planReconciliation([file('a.md', v1)], index(knownAt(A, null, v1)), options());
    expect(plan.moves).toEqual([{ object: A, from: null, to: 'a.md' }]);
  });

  it('adopts an unknown id: registration, then a root observed-external transformation', () => {
    const text = doc(B, 'new\n', 'place');
    const plan = planReconciliation([file('places/b.md', text)], index(), options());
    const revision = revisionId(hashOf(text), []);
    expect(plan.entries.map((e) => [e.kind, e.body])).toEqual([
      ['object-registered', { object: B, path: 'places/b.md', schema: 'place', derived_from: [] }],
      [
        'transformation',
        {
          inputs: [],
          outputs: [{ object: B, revision, content_hash: hashOf(text), parents: [] }],
          agent: { type: 'external' },
          intent: { kind: 'observed-external', summary: 'adopted: places/b.md' },
          confidence: 'unknown',
        },
      ],
    ]);
    expect(plan.entries[0]?.idem).toBe(observationIdem(['object-registered', B, 'places/b.md']));
  });

  it('holds an id carried by two files: a diagnostic (and its entry), no revision, neither moved nor absent', () => {
    const plan = planReconciliation(
      [file('x.md', doc(A, 'one\n')), file('y.md', doc(A, 'two\n')), file('z.md', doc(B, 'b\n'))],
      index(knownAt(A, 'elena.md', v1)),
      options(),
    );
    expect(plan.held).toEqual([A]);
    expect(plan.diagnostics).toEqual([
      { code: 'duplicate-id', object: A, path: 'x.md', message: `id ${A} is carried by 2 files: x.md, y.md` },
    ]);
    const [diagnostic, ...rest] = plan.entries;
    expect(diagnostic).toMatchObject({
      kind: 'diagnostic',
      body: { code: 'duplicate-id', object: A, paths: ['x.md', 'y.md'] },
    });
    expect(rest.every((e) => JSON.stringify(e.body).includes(B))).toBe(true);
    expect(plan.moves).toEqual([]);
    expect(plan.absent).toEqual([]);
  });

  it('reports a known object no file carries as absent, unless the walk could not look there', () => {
    const known = index(
      knownAt(A, 'gone.md', v1),
      knownAt(B, 'hidden/b.md', v1),
      knownAt('0190b000-0000-7000-8000-0000000000c1', 'image.png', v1),
    );
    const plan = planReconciliation([file('readme.md', 'no identity\n')], known, options());
    expect(plan.absent).toEqual([
      { object: A, path: 'gone.md' },
      { object: B, path: 'hidden/b.md' },
    ]);
    expect(plan.entries).toEqual([]);
    const hidden = planReconciliation(
      [],
      known,
      options({ coverage: { skipped: ['gone.md'], skippedDirs: ['hidden'], complete: true } }),
    );
    expect(hidden.absent).toEqual([]);
    expect(hidden.unverified).toEqual([A, B]);
    const cut = planReconciliation(
      [],
      known,
      options({ coverage: { skipped: [], skippedDirs: [], complete: false } }),
    );
    expect(cut.absent).toEqual([]);
  });

  it('ignores files without an identity and binary content', () => {
    const plan = planReconciliation(
      [file('plain.md', 'no id\n'), { path: 'bin.md', bytes: new Uint8Array([0xff, 0xfe]) }],
      index(),
      options(),
    );
    expect(plan.entries).toEqual([]);
    expect(plan.diagnostics).toEqual([]);
  });

  it('mints nothing on a fork the file matches neither side of, and nothing when it matches one', () => {
    const h1 = hashOf(doc(A, 'left\n'));
    const h2 = hashOf(doc(A, 'right\n'));
    const fork: KnownObject = {
      object: A,
      path: 'a.md',
      schema: null,
      heads: [
        { revision: revisionId(h1, []), contentHash: h1 },
        { revision: revisionId(h2, []), contentHash: h2 },
      ],
      contentHashes: new Set([h1, h2]),
    };
    const third = planReconciliation([file('a.md', doc(A, 'third\n'))], index(fork), options());
    expect(third.entries).toEqual([]);
    expect(third.diagnostics.map((d) => d.code)).toEqual(['ambiguous-heads']);
    const right = planReconciliation([file('a.md', doc(A, 'right\n'))], index(fork), options());
    expect(right.entries).toEqual([]);
    expect(right.diagnostics).toEqual([]);
  });

  it('gives a registered object without any revision a root revision', () => {
    const bare: KnownObject = { object: A, path: 'a.md', schema: null, heads: [], contentHashes: new Set() };
    const plan = planReconciliation([file('a.md', v1)], index(bare), options());
    expect(plan.entries.map((e) => e.kind)).toEqual(['transformation']);
    expect(plan.entries[0]?.body).toMatchObject({
      outputs: [{ parents: [], revision: revisionId(hashOf(v1), []) }],
    });
  });
});

describe('planReconciliation with git', () => {
  const SHA1 = '1'.repeat(40);
  const SHA2 = '2'.repeat(40);
  const v1 = doc(A, 'Elena, v1\n');
  const v2 = doc(A, 'Elena, v2\n');
  const navigation: GitClassification = {
    kind: 'navigation',
    op: 'branch-switch',
    from: SHA1,
    to: SHA2,
    ref: 'draft',
    evidence: 'reflog record',
  };
  /** A known object at v2 whose history also recorded v1, its parent. */
  function knownTwice(): KnownObject {
    const h1 = hashOf(v1);
    const h2 = hashOf(v2);
    const r1 = revisionId(h1, []);
    return {
      object: A,
      path: 'elena.md',
      schema: null,
      heads: [{ revision: revisionId(h2, [r1]), contentHash: h2 }],
      contentHashes: new Set([h1, h2]),
    };
  }

  it('records a navigation as one navigation entry and mints no revision for a changed file', () => {
    const plan = planReconciliation(
      [file('elena.md', v2)],
      index(knownAt(A, 'elena.md', v1)),
      options({ git: navigation }),
    );
    expect(plan.entries).toEqual([
      {
        format: 0,
        id: '0190b000-0000-7000-8000-000000009001',
        kind: 'navigation',
        time: '2026-07-18T10:00:00.000Z',
        writer: WRITER,
        idem: observationIdem(['navigation', SHA1, SHA2, 'reflog record']),
        body: { git: { op: 'branch-switch', from: SHA1, to: SHA2, ref: 'draft' } },
      },
    ]);
    expect(plan.diagnostics).toEqual([]);
  });

  it('gives the same move the same idem, and a later identical move another one', () => {
    const idem = (git: GitClassification) =>
      planReconciliation([], index(), options({ git })).entries.map((e) => e.idem);
    expect(idem(navigation)).toEqual(idem(navigation));
    expect(idem({ ...navigation, evidence: 'a later record' })).not.toEqual(idem(navigation));
  });

  it('on a navigation, still adopts new ids, reports moves, and tolerates a fork', () => {
    const h1 = hashOf(doc(A, 'left\n'));
    const h2 = hashOf(doc(A, 'right\n'));
    const fork: KnownObject = {
      object: A,
      path: 'a.md',
      schema: null,
      heads: [
        { revision: revisionId(h1, []), contentHash: h1 },
        { revision: revisionId(h2, []), contentHash: h2 },
      ],
      contentHashes: new Set([h1, h2]),
    };
    const plan = planReconciliation(
      [file('moved/a.md', doc(A, 'third\n')), file('b.md', doc(B, 'new\n'))],
      index(fork),
      options({ git: navigation }),
    );
    expect(plan.entries.map((e) => e.kind)).toEqual(['navigation', 'object-registered', 'transformation']);
    expect(plan.moves).toEqual([{ object: A, from: 'a.md', to: 'moved/a.md' }]);
    expect(plan.diagnostics).toEqual([]);
  });

  it('records a git mutation as a git transformation on the single head', () => {
    const known = knownAt(A, 'elena.md', v1);
    const head = known.heads[0]?.revision ?? '';
    const git: GitClassification = { kind: 'mutation', op: 'merge', from: SHA1, to: SHA2 };
    const plan = planReconciliation([file('elena.md', v2)], index(known), options({ git }));
    const revision = revisionId(hashOf(v2), [head]);
    expect(plan.entries.map((e) => [e.kind, e.idem, e.body])).toEqual([
      [
        'transformation',
        observationIdem(['transformation', A, revision]),
        {
          inputs: [],
          outputs: [{ object: A, revision, content_hash: hashOf(v2), parents: [head] }],
          agent: { type: 'git' },
          intent: { kind: 'git-merge', summary: 'git merge: elena.md' },
          confidence: 'unknown',
        },
      ],
    ]);
  });

  it('records a revert back to an older recorded state as git content, not as nothing', () => {
    const git: GitClassification = { kind: 'mutation', op: 'revert', from: SHA1, to: SHA2 };
    const plan = planReconciliation([file('elena.md', v1)], index(knownTwice()), options({ git }));
    expect(plan.entries.map((e) => e.body)).toMatchObject([
      { agent: { type: 'git' }, intent: { kind: 'git-revert' }, outputs: [{ content_hash: hashOf(v1) }] },
    ]);
  });

  it('keeps a commit an outside edit', () => {
    const plan = planReconciliation(
      [file('elena.md', v2)],
      index(knownAt(A, 'elena.md', v1)),
      options({ git: { kind: 'commit' } }),
    );
    expect(plan.entries.map((e) => e.body)).toMatchObject([
      { agent: { type: 'external' }, intent: { kind: 'observed-external' } },
    ]);
  });

  it('in a repository, takes an older recorded state for one a checkout left, and mints nothing', () => {
    for (const git of [{ kind: 'none' }, { kind: 'commit' }, navigation] as const) {
      const plan = planReconciliation([file('elena.md', v1)], index(knownTwice()), options({ git }));
      expect(plan.entries.filter((e) => e.kind === 'transformation')).toEqual([]);
    }
    // Without git nothing puts an old state back but an edit, so it is one.
    const plain = planReconciliation([file('elena.md', v1)], index(knownTwice()), options());
    expect(plain.entries.map((e) => e.body)).toMatchObject([{ agent: { type: 'external' } }]);
  });
});

describe('observationIdem', () => {
  it('is a stable version-8 UUID that differs per fact', () => {
    const a = observationIdem(['transformation', A, 'rev1:x']);
    expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(observationIdem(['transformation', A, 'rev1:x'])).toBe(a);
    expect(observationIdem(['transformation', A, 'rev1:y'])).not.toBe(a);
  });
});
