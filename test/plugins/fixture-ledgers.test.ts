/**
 * Hand-written ledgers (test/fixtures/<name>/.vmark/, each explained line by line in the fixture's
 * README.md) read through the real `coherence` tool of a real host. Every expected answer below
 * is derived from vmark-notes §7.3–§7.6 by hand, not recorded from a run. The fixtures hold no
 * Markdown file with an identity, so the scan `edges` runs first has nothing to reconcile and
 * every answer comes from the ledger and the context manifests alone.
 */
import { createHash } from 'node:crypto';
import { cp, mkdtemp, readdir, readFile, realpath, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readManifest, startTestHost, type TestHost } from '@vmark/sdk/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import documentPlugin from '../../plugins/document/src/index.js';
import coherencePlugin from '../../plugins/coherence/src/index.js';

const plugins = [
  {
    manifest: readManifest(new URL('../../plugins/document/manifest.json', import.meta.url)),
    plugin: documentPlugin,
  },
  {
    manifest: readManifest(new URL('../../plugins/coherence/manifest.json', import.meta.url)),
    plugin: coherencePlugin,
  },
];

const FIXTURES = fileURLToPath(new URL('../../plugins/coherence/test/fixtures/', import.meta.url));

// The naming scheme of the fixtures (see each README.md).
const WRITER_A = '0198c0de-0a00-7000-8000-00000000000a';
const WRITER_B = '0198c0de-0a00-7000-8000-00000000000b';
const NIL = '00000000-0000-0000-0000-000000000000';
/** Object `oNN`. */
const o = (nn: string) => `0198c0de-0b00-7000-8000-0000000000${nn}`;
/** Ledger entry `eNN` (written at 2026-07-18T10:NN:00.000Z). */
const e = (nn: string) => `0198c0de-0e00-7000-8000-0000000000${nn}`;
/** Claim `CNN`. */
const c = (nn: string) => `0198c0de-0c00-7000-8000-0000000000${nn}`;
/** Context `ctxNN`. */
const ctx = (nn: string) => `0198c0de-0c70-7000-8000-0000000000${nn}`;
/** Revision `NNv` of object `oNN`: `rev1:` + `NNvv` sixteen times, e.g. rev('01a') = rev1:01aa01aa…01aa. */
const rev = (tag: string) => `rev1:${`${tag}${tag.slice(-1)}`.repeat(16)}`;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let workspace: string;
let kit: TestHost | undefined;

/** A temporary copy of the fixture, opened as the host's workspace: the tools may write into it. */
async function open(fixture: string): Promise<void> {
  workspace = await realpath(await mkdtemp(path.join(os.tmpdir(), `vmark-fixture-${fixture}-`)));
  await cp(path.join(FIXTURES, fixture), workspace, { recursive: true });
  kit = await startTestHost({ plugins, workspace });
}

async function ask(action: 'status' | 'edges' | 'claims' | 'contexts'): Promise<unknown> {
  const outcome = await kit!.call('coherence', { action, workspace_root: workspace });
  expect(outcome.isError, outcome.text).toBe(false);
  return outcome.data;
}

const segmentsOf = async (root: string) =>
  (await readdir(path.join(root, '.vmark', 'ledger'))).filter((n) => n.endsWith('.jsonl')).sort();

afterEach(async () => {
  await kit?.dispose();
  kit = undefined;
  await rm(workspace, { recursive: true, force: true });
});

/** Every committed fixture file, with a digest of its bytes. */
async function fixtureDigests(): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const files = await readdir(FIXTURES, { recursive: true, withFileTypes: true });
  for (const f of files.filter((d) => d.isFile())) {
    const file = path.join(f.parentPath, f.name);
    out[path.relative(FIXTURES, file)] = createHash('sha256')
      .update(await readFile(file))
      .digest('hex');
  }
  return out;
}

let before: Record<string, string>;
beforeAll(async () => {
  before = await fixtureDigests();
});
afterAll(async () => {
  // The tools ran on copies: the committed fixtures are byte for byte what was typed.
  expect(await fixtureDigests()).toEqual(before);
});

describe('fixture edge-states: every state on one live upstream (§7.5)', () => {
  const elena = { upstream: o('01'), upstream_path: 'characters/elena.md' };

  it('edges lists exactly the live non-fresh edges, in ledger order', async () => {
    await open('edge-states');
    const expected = [
      {
        txf: e('20'),
        input: 0,
        ...elena,
        pinned: rev('01a'),
        downstream: o('14'),
        downstream_path: 'scenes/stale-valid.md',
        downstream_rev: rev('14a'),
        confidence: 'inferred',
        state: 'stale-valid',
        prior_waivers: 0,
        kind: 'dependency',
        frozen_downstream: false,
        actionable: true,
      },
      {
        txf: e('21'),
        input: 0,
        ...elena,
        pinned: rev('01a'),
        downstream: o('15'),
        downstream_path: 'scenes/stale-contradicted.md',
        downstream_rev: rev('15a'),
        confidence: 'inferred',
        state: 'stale-contradicted',
        prior_waivers: 0,
        kind: 'dependency',
        frozen_downstream: false,
        actionable: true,
      },
      {
        txf: e('22'),
        input: 0,
        ...elena,
        pinned: rev('01a'),
        downstream: o('16'),
        downstream_path: 'scenes/stale-unknown.md',
        downstream_rev: rev('16a'),
        confidence: 'inferred',
        state: 'stale-unknown',
        prior_waivers: 0,
        kind: 'dependency',
        frozen_downstream: false,
        actionable: true,
      },
      {
        txf: e('23'),
        input: 0,
        ...elena,
        pinned: rev('01a'),
        downstream: o('21'),
        downstream_path: 'scenes/old-ratification.md',
        downstream_rev: rev('21a'),
        confidence: 'inferred',
        state: 'version-stale',
        prior_waivers: 0,
        kind: 'dependency',
        frozen_downstream: false,
        actionable: true,
      },
      {
        txf: e('24'),
        input: 0,
        ...elena,
        pinned: rev('01a'),
        downstream: o('22'),
        downstream_path: 'scenes/checks-not-live.md',
        downstream_rev: rev('22a'),
        confidence: 'inferred',
        state: 'version-stale',
        prior_waivers: 0,
        kind: 'dependency',
        frozen_downstream: false,
        actionable: true,
      },
      {
        txf: e('28'),
        input: 0,
        ...elena,
        pinned: rev('01b'),
        downstream: o('13'),
        downstream_path: 'scenes/version-stale.md',
        downstream_rev: rev('13a'),
        confidence: 'exact',
        state: 'version-stale',
        prior_waivers: 0,
        kind: 'dependency',
        frozen_downstream: false,
        actionable: true,
      },
      {
        txf: e('29'),
        input: 0,
        ...elena,
        pinned: rev('01b'),
        downstream: o('17'),
        downstream_path: 'scenes/waived.md',
        downstream_rev: rev('17a'),
        confidence: 'inferred',
        state: 'waived',
        prior_waivers: 1,
        kind: 'dependency',
        frozen_downstream: false,
        actionable: true,
      },
      {
        txf: e('30'),
        input: 0,
        ...elena,
        pinned: rev('01b'),
        downstream: o('18'),
        downstream_path: 'scenes/waived-no-expiry.md',
        downstream_rev: rev('18a'),
        confidence: 'inferred',
        state: 'waived',
        prior_waivers: 1,
        kind: 'dependency',
        frozen_downstream: false,
        actionable: true,
      },
      {
        txf: e('31'),
        input: 0,
        ...elena,
        pinned: rev('01b'),
        downstream: o('19'),
        downstream_path: 'scenes/waiver-expired.md',
        downstream_rev: rev('19a'),
        confidence: 'inferred',
        state: 'version-stale',
        prior_waivers: 1,
        kind: 'dependency',
        frozen_downstream: false,
        actionable: true,
      },
      {
        txf: e('32'),
        input: 0,
        ...elena,
        pinned: rev('01b'),
        downstream: o('20'),
        downstream_path: 'scenes/ratified-then-waiver-expired.md',
        downstream_rev: rev('20a'),
        confidence: 'inferred',
        state: 'version-stale',
        prior_waivers: 1,
        kind: 'dependency',
        frozen_downstream: false,
        actionable: true,
      },
      {
        txf: e('33'),
        input: 1,
        ...elena,
        pinned: rev('01b'),
        downstream: o('24'),
        downstream_path: 'scenes/contextual.md',
        downstream_rev: rev('24a'),
        confidence: 'exact',
        state: 'version-stale',
        prior_waivers: 0,
        kind: 'dependency',
        frozen_downstream: false,
        actionable: true,
      },
      {
        txf: e('34'),
        input: 0,
        ...elena,
        pinned: rev('01f'),
        downstream: o('23'),
        downstream_path: 'scenes/diverged.md',
        downstream_rev: rev('23a'),
        confidence: 'inferred',
        state: 'diverged',
        prior_waivers: 0,
        kind: 'dependency',
        frozen_downstream: false,
        actionable: true,
      },
      {
        txf: e('35'),
        input: 0,
        ...elena,
        pinned: rev('01b'),
        downstream: o('26'),
        downstream_path: 'scenes/revised.md',
        downstream_rev: rev('26b'),
        confidence: 'exact',
        state: 'version-stale',
        prior_waivers: 0,
        kind: 'dependency',
        frozen_downstream: false,
        actionable: true,
      },
    ];
    expect(await ask('edges')).toEqual(expected);
    // A second call reconciles again and answers the same.
    expect(await ask('edges')).toEqual(expected);
    // Nothing to reconcile: no entry was appended, so this installation has no segment.
    expect(await segmentsOf(workspace)).toEqual([`${WRITER_A}.jsonl`]);
  });

  it('status counts the same open items; claims and contexts are the implicit defaults', async () => {
    await open('edge-states');
    expect(await ask('status')).toEqual({
      initialized: true,
      objects: 0,
      open_items: 13,
      quarantined: 0,
      writer: expect.stringMatching(UUID),
    });
    expect(await ask('claims')).toEqual([]);
    expect(await ask('contexts')).toEqual([
      { id: NIL, name: 'default', parent: null, enforcement: 'greenhouse', visibleClaims: 0, errors: [] },
    ]);
  });
});

describe('fixture heads-and-pins: forks and contexts/default.json pins (§7.4, §7.5 steps 1–2, 7)', () => {
  it('edges: diverged, multi-head (any kind), unpinnable, frozen downstream; the rest is absent', async () => {
    await open('heads-and-pins');
    expect(await ask('edges')).toEqual([
      {
        txf: e('23'),
        input: 0,
        upstream: o('03'),
        upstream_path: 'lore/kingdoms.md',
        pinned: rev('03c'),
        downstream: o('41'),
        downstream_path: 'scenes/siege.md',
        downstream_rev: rev('41a'),
        confidence: 'inferred',
        state: 'diverged',
        prior_waivers: 0,
        kind: 'dependency',
        frozen_downstream: false,
        actionable: true,
      },
      {
        txf: e('24'),
        input: 0,
        upstream: o('03'),
        upstream_path: 'lore/kingdoms.md',
        pinned: rev('03a'),
        downstream: o('42'),
        downstream_path: 'scenes/coronation.md',
        downstream_rev: rev('42a'),
        confidence: 'inferred',
        state: 'version-stale',
        prior_waivers: 0,
        kind: 'dependency',
        frozen_downstream: false,
        actionable: true,
      },
      {
        txf: e('25'),
        input: 0,
        upstream: o('04'),
        upstream_path: 'lore/houses.md',
        pinned: rev('04b'),
        downstream: o('43'),
        downstream_path: 'scenes/feast.md',
        downstream_rev: rev('43a'),
        confidence: 'exact',
        state: 'diverged-multi-head',
        prior_waivers: 0,
        kind: 'dependency',
        frozen_downstream: false,
        actionable: false,
      },
      {
        txf: e('25'),
        input: 1,
        upstream: o('04'),
        upstream_path: 'lore/houses.md',
        pinned: rev('04a'),
        downstream: o('43'),
        downstream_path: 'scenes/feast.md',
        downstream_rev: rev('43a'),
        confidence: 'exact',
        state: 'diverged-multi-head',
        prior_waivers: 0,
        kind: 'mention',
        frozen_downstream: false,
        actionable: false,
      },
      {
        txf: e('26'),
        input: 0,
        upstream: o('05'),
        upstream_path: 'lore/maps.md',
        pinned: rev('05b'),
        downstream: o('44'),
        downstream_path: 'scenes/voyage.md',
        downstream_rev: rev('44a'),
        confidence: 'inferred',
        state: 'unpinnable',
        prior_waivers: 0,
        kind: 'dependency',
        frozen_downstream: false,
        actionable: false,
      },
      {
        txf: e('27'),
        input: 0,
        upstream: o('06'),
        upstream_path: 'lore/missing.md',
        pinned: rev('06a'),
        downstream: o('45'),
        downstream_path: null,
        downstream_rev: rev('45a'),
        confidence: 'inferred',
        state: 'unpinnable',
        prior_waivers: 0,
        kind: 'dependency',
        frozen_downstream: false,
        actionable: false,
      },
      {
        txf: e('29'),
        input: 0,
        upstream: o('03'),
        upstream_path: 'lore/kingdoms.md',
        pinned: rev('03a'),
        downstream: o('47'),
        downstream_path: 'scenes/exile.md',
        downstream_rev: rev('47a'),
        confidence: 'inferred',
        state: 'version-stale',
        prior_waivers: 0,
        kind: 'dependency',
        frozen_downstream: true,
        actionable: true,
      },
    ]);
  });

  it('status leaves the frozen downstream out of open_items; contexts shows the materialized default', async () => {
    await open('heads-and-pins');
    expect(await ask('status')).toEqual({
      initialized: true,
      objects: 0,
      open_items: 6,
      quarantined: 0,
      writer: expect.stringMatching(UUID),
    });
    expect(await ask('contexts')).toEqual([
      { id: NIL, name: 'default', parent: null, enforcement: 'greenhouse', visibleClaims: 0, errors: [] },
    ]);
  });
});

describe('fixture damaged-ledger: two writers, torn tail, malformed, future format, unknown kind, duplicate idem (§7.3)', () => {
  const world = { upstream: o('02'), upstream_path: 'notes/world.md', pinned: rev('02a') };
  const stale = { state: 'version-stale', kind: 'dependency', frozen_downstream: false, actionable: true };

  it('edges: every damaged or foreign line leaves its edge version-stale; rows in (time, id) order across writers', async () => {
    await open('damaged-ledger');
    const expected = [
      {
        txf: e('09'),
        input: 0,
        ...world,
        downstream: o('31'),
        downstream_path: 'scenes/harbor.md',
        downstream_rev: rev('31a'),
        confidence: 'inferred',
        ...stale,
        prior_waivers: 0,
      },
      {
        txf: e('10'),
        input: 0,
        ...world,
        downstream: o('32'),
        downstream_path: 'scenes/market.md',
        downstream_rev: rev('32a'),
        confidence: 'inferred',
        ...stale,
        prior_waivers: 0,
      },
      {
        txf: e('11'),
        input: 0,
        ...world,
        downstream: o('33'),
        downstream_path: 'scenes/tower.md',
        downstream_rev: rev('33a'),
        confidence: 'exact',
        ...stale,
        prior_waivers: 0,
      },
      {
        txf: e('12'),
        input: 0,
        ...world,
        downstream: o('34'),
        downstream_path: 'scenes/bridge.md',
        downstream_rev: rev('34a'),
        confidence: 'inferred',
        ...stale,
        prior_waivers: 1,
      },
      {
        txf: e('13'),
        input: 0,
        ...world,
        downstream: o('35'),
        downstream_path: 'scenes/quay.md',
        downstream_rev: rev('35a'),
        confidence: 'inferred',
        ...stale,
        prior_waivers: 0,
      },
      {
        txf: e('22'),
        input: 0,
        ...world,
        downstream: o('36'),
        downstream_path: 'scenes/lighthouse.md',
        downstream_rev: rev('36a'),
        confidence: 'inferred',
        ...stale,
        prior_waivers: 0,
      },
    ];
    expect(await ask('edges')).toEqual(expected);
    expect(await ask('edges')).toEqual(expected);
    // Neither segment was appended to, and no segment was added.
    expect(await segmentsOf(workspace)).toEqual([`${WRITER_A}.jsonl`, `${WRITER_B}.jsonl`]);
    for (const segment of [`${WRITER_A}.jsonl`, `${WRITER_B}.jsonl`]) {
      expect(await readFile(path.join(workspace, '.vmark', 'ledger', segment), 'utf8')).toBe(
        await readFile(path.join(FIXTURES, 'damaged-ledger', '.vmark', 'ledger', segment), 'utf8'),
      );
    }
  });

  it('edges quarantines the two malformed lines of writer a, once, and not the torn tail', async () => {
    await open('damaged-ledger');
    await ask('edges');
    const lines = (
      await readFile(path.join(FIXTURES, 'damaged-ledger', '.vmark', 'ledger', `${WRITER_A}.jsonl`), 'utf8')
    ).split('\n');
    const quarantine = path.join(workspace, '.vmark', 'ledger', 'quarantine');
    const files = await readdir(quarantine);
    // §7.1 `ledger/quarantine/<segment>.bad`: one file, for writer a's segment only.
    expect(files).toHaveLength(1);
    expect(files[0]!.startsWith(WRITER_A) && files[0]!.endsWith('.bad')).toBe(true);
    const text = await readFile(path.join(quarantine, files[0]!), 'utf8');
    const records = text.split('\n');
    expect(records).toEqual([
      expect.stringMatching(/^# line 11, \S/),
      lines[10],
      expect.stringMatching(/^# line 12, \S/),
      lines[11],
      '',
    ]);
    // Appended once per identical line: a second read adds nothing.
    await ask('edges');
    expect(await readFile(path.join(quarantine, files[0]!), 'utf8')).toBe(text);
  });

  it('status counts the two malformed lines only', async () => {
    await open('damaged-ledger');
    expect(await ask('status')).toEqual({
      initialized: true,
      objects: 0,
      open_items: 6,
      quarantined: 2,
      writer: expect.stringMatching(UUID),
    });
    // The writer is this installation's, neither of the fixture's.
    const { writer } = (await ask('status')) as { writer: string };
    expect([WRITER_A, WRITER_B]).not.toContain(writer);
  });
});

describe('fixture claims: claim lifecycle and the default context feed (§7.3 claim, §7.6 claims)', () => {
  it('claims lists each claim once, at its current entry, with visibility in the default context', async () => {
    await open('claims');
    expect(await ask('claims')).toEqual([
      {
        claim: c('01'),
        entryId: e('05'),
        statement: 'Elena is left-handed.',
        maturity: 'established',
        invalidAt: null,
        visible: true,
      },
      {
        claim: c('02'),
        entryId: e('06'),
        statement: 'The harbor freezes every winter.',
        maturity: 'draft',
        invalidAt: null,
        visible: false,
      },
      {
        claim: c('03'),
        entryId: e('09'),
        statement: 'The capital is Vey Ra, on the river.',
        maturity: 'established',
        invalidAt: null,
        visible: true,
      },
      {
        claim: c('04'),
        entryId: e('12'),
        statement: 'Elena has a sister.',
        maturity: 'established',
        invalidAt: '2026-07-18T10:12:00.000Z',
        visible: true,
      },
      {
        claim: c('05'),
        entryId: e('15'),
        statement: 'Mages cannot cross the sea.',
        maturity: 'draft',
        invalidAt: null,
        visible: true,
      },
    ]);
  });

  it('a check made under the empty claims feed is not live once the default context feeds claims', async () => {
    await open('claims');
    expect(await ask('edges')).toEqual([
      {
        txf: e('16'),
        input: 0,
        upstream: o('09'),
        upstream_path: 'world/bible.md',
        pinned: rev('09a'),
        downstream: o('51'),
        downstream_path: 'scenes/opening.md',
        downstream_rev: rev('51a'),
        confidence: 'inferred',
        state: 'version-stale',
        prior_waivers: 0,
        kind: 'dependency',
        frozen_downstream: false,
        actionable: true,
      },
    ]);
    expect(await ask('status')).toEqual({
      initialized: true,
      objects: 0,
      open_items: 1,
      quarantined: 0,
      writer: expect.stringMatching(UUID),
    });
    expect(await ask('contexts')).toEqual([
      { id: NIL, name: 'default', parent: null, enforcement: 'greenhouse', visibleClaims: 4, errors: [] },
    ]);
  });
});

describe('fixture contexts: a parent chain and a cycle (§7.4, §7.6 contexts)', () => {
  it('contexts: the implicit default, a three-level chain, and a cycle degraded to the default', async () => {
    await open('contexts');
    expect(await ask('contexts')).toEqual([
      { id: NIL, name: 'default', parent: null, enforcement: 'greenhouse', visibleClaims: 0, errors: [] },
      { id: ctx('01'), name: 'arc-1', parent: null, enforcement: 'enforcing', visibleClaims: 2, errors: [] },
      {
        id: ctx('02'),
        name: 'arc-2',
        parent: ctx('01'),
        enforcement: 'greenhouse',
        visibleClaims: 3,
        errors: [],
      },
      {
        id: ctx('03'),
        name: 'arc-3',
        parent: ctx('02'),
        enforcement: 'greenhouse',
        visibleClaims: 3,
        errors: [],
      },
      {
        id: ctx('04'),
        name: 'loop-a',
        parent: ctx('05'),
        enforcement: 'greenhouse',
        visibleClaims: 0,
        errors: [expect.stringMatching(/cycle/)],
      },
      {
        id: ctx('05'),
        name: 'loop-b',
        parent: ctx('04'),
        enforcement: 'greenhouse',
        visibleClaims: 0,
        errors: [expect.stringMatching(/cycle/)],
      },
    ]);
  });

  it('claims: none is visible in the implicit default; nothing is open', async () => {
    await open('contexts');
    expect(await ask('claims')).toEqual([
      {
        claim: c('01'),
        entryId: e('04'),
        statement: 'Elena is left-handed.',
        maturity: 'established',
        invalidAt: null,
        visible: false,
      },
      {
        claim: c('02'),
        entryId: e('05'),
        statement: 'The harbor freezes every winter.',
        maturity: 'draft',
        invalidAt: null,
        visible: false,
      },
      {
        claim: c('03'),
        entryId: e('06'),
        statement: 'The capital is Veyra.',
        maturity: 'draft',
        invalidAt: null,
        visible: false,
      },
    ]);
    expect(await ask('edges')).toEqual([]);
    expect(await ask('status')).toEqual({
      initialized: true,
      objects: 0,
      open_items: 0,
      quarantined: 0,
      writer: expect.stringMatching(UUID),
    });
  });
});

describe('fixture contexts-default-parent: a context whose parent is the implicit default (§7.4)', () => {
  it('resolves without error: the default exists without a file', async () => {
    await open('contexts-default-parent');
    expect(await ask('contexts')).toEqual([
      { id: NIL, name: 'default', parent: null, enforcement: 'greenhouse', visibleClaims: 0, errors: [] },
      {
        id: ctx('11'),
        name: 'chapter-1',
        parent: NIL,
        enforcement: 'enforcing',
        visibleClaims: 1,
        errors: [],
      },
    ]);
  });
});
