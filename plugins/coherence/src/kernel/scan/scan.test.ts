import { isolatedGit } from '../../../test/isolated-git.js';
import { mkdir, mkdtemp, readdir, readFile, rename, rm, symlink, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { contentHashOfBytes, revisionId } from '../identity/index.js';
import { readLedger } from '../ledger/index.js';
import { scanWorkspace, type ScanOptions } from './scan.js';

/** The scanning installation, and another one whose segment holds the recorded history. */
const WRITER = '0190c000-0000-7000-8000-00000000000a';
const OTHER = '0190c000-0000-7000-8000-00000000000b';
const A = '0190c000-0000-7000-8000-0000000000a1';
const B = '0190c000-0000-7000-8000-0000000000b1';

const V1 = `---\ntitle: Elena\nvmark:\n  id: ${A}\n  schema: character\n---\nElena is a smith.\n`;
const V2 = V1.replace('a smith', 'a sailor');
const H1 = contentHashOfBytes(Buffer.from(V1));
const R1 = revisionId(H1, []);

/** Written by hand, as another implementation would have: registration, then the first capture. */
const HISTORY =
  `{"format":0,"id":"0190c000-0001-7000-8000-000000000001","kind":"object-registered","time":"2026-07-18T09:00:00.000Z","writer":"${OTHER}","idem":"0190c000-0001-7000-8000-0000000000e1","body":{"object":"${A}","path":"cast/elena.md","schema":"character","derived_from":[]}}\n` +
  `{"format":0,"id":"0190c000-0002-7000-8000-000000000002","kind":"transformation","time":"2026-07-18T09:00:01.000Z","writer":"${OTHER}","idem":"0190c000-0002-7000-8000-0000000000e2","body":{"inputs":[],"outputs":[{"object":"${A}","revision":"${R1}","content_hash":"${H1}","parents":[]}],"agent":{"type":"human"},"intent":{"kind":"save","summary":"editor save"},"confidence":"exact"}}\n`;

let root: string;
let vmark: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'vmark-scan-'));
  vmark = join(root, '.vmark');
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

function opts(extra: Partial<ScanOptions> = {}): ScanOptions {
  let n = 0;
  return {
    now: () => new Date(Date.UTC(2026, 6, 18, 10, 0, 0, 0)),
    newId: () => `0190c000-0009-7000-8000-${(++n).toString(16).padStart(12, '0')}`,
    ...extra,
  };
}
const scan = (extra: Partial<ScanOptions> = {}) => scanWorkspace(root, vmark, WRITER, opts(extra));

async function put(rel: string, content: string | Uint8Array): Promise<void> {
  const abs = join(root, ...rel.split('/'));
  await mkdir(join(abs, '..'), { recursive: true });
  await writeFile(abs, content);
}

async function withHistory(): Promise<void> {
  await put(`.vmark/ledger/${OTHER}.jsonl`, HISTORY);
  await put('cast/elena.md', V1);
}

/** Every file under `.vmark/` with its bytes, to prove a scan left it untouched. */
async function snapshot(): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const name of await readdir(vmark, { recursive: true, withFileTypes: true })) {
    if (!name.isFile()) continue;
    const abs = join(name.parentPath, name.name);
    out[abs.slice(vmark.length)] = (await readFile(abs)).toString('base64');
  }
  return out;
}

/** Scans again and checks that it appends nothing and leaves `.vmark/` byte-identical. */
async function expectIdempotent(extra: Partial<ScanOptions> = {}): Promise<void> {
  const before = await snapshot();
  const again = await scan(extra);
  expect(again.entries).toEqual([]);
  expect(again.appended).toBe(0);
  expect(await snapshot()).toEqual(before);
}

const mine = async () => (await readLedger(vmark)).entries.filter((e) => e.writer === WRITER);

describe('scanWorkspace', () => {
  it('appends nothing for an unchanged object: the ledger stays byte-identical', async () => {
    await withHistory();
    const before = await snapshot();
    const result = await scan();
    expect(result.appended).toBe(0);
    expect(result.diagnostics).toEqual([]);
    expect(await snapshot()).toEqual(before);
    expect(await readdir(join(vmark, 'ledger'))).toEqual([`${OTHER}.jsonl`]);
  });

  it('records an outside edit as one observed-external transformation on the head', async () => {
    await withHistory();
    await put('cast/elena.md', V2);
    const result = await scan();
    expect(result.appended).toBe(1);
    const h2 = contentHashOfBytes(Buffer.from(V2));
    const entries = await mine();
    expect(entries).toHaveLength(1);
    expect(entries[0]?.kind).toBe('transformation');
    expect(entries[0]?.body).toMatchObject({
      inputs: [],
      outputs: [{ object: A, revision: revisionId(h2, [R1]), content_hash: h2, parents: [R1] }],
      agent: { type: 'external' },
      intent: { kind: 'observed-external' },
      confidence: 'unknown',
    });
    await expectIdempotent();
  });

  it('reports a move without appending, and not again once the caller applies it', async () => {
    await withHistory();
    await mkdir(join(root, 'archive'));
    await rename(join(root, 'cast', 'elena.md'), join(root, 'archive', 'elena.md'));
    const result = await scan();
    expect(result.moves).toEqual([{ object: A, from: 'cast/elena.md', to: 'archive/elena.md' }]);
    expect(result.absent).toEqual([]);
    expect(result.appended).toBe(0);
    expect(await mine()).toEqual([]);
    await expectIdempotent();
    const applied = await scan({ observedPaths: new Map([[A, 'archive/elena.md']]) });
    expect(applied.moves).toEqual([]);
  });

  it('marks a deleted object absent without an entry', async () => {
    await withHistory();
    await unlink(join(root, 'cast', 'elena.md'));
    const result = await scan();
    expect(result.absent).toEqual([{ object: A, path: 'cast/elena.md' }]);
    expect(result.appended).toBe(0);
    await expectIdempotent();
  });

  it('holds duplicate ids: one diagnostic entry, recorded once, and no revision', async () => {
    await withHistory();
    await put('copy/elena.md', V2);
    const result = await scan();
    expect(result.held).toEqual([A]);
    expect(result.diagnostics.map((d) => [d.code, d.object])).toEqual([['duplicate-id', A]]);
    expect(result.appended).toBe(1);
    expect((await mine()).at(-1)).toMatchObject({
      kind: 'diagnostic',
      body: { code: 'duplicate-id', object: A, paths: ['cast/elena.md', 'copy/elena.md'] },
    });
    await expectIdempotent();
  });

  it('skips a symlink with a diagnostic; the object behind it is unverified, not changed or absent', async () => {
    await withHistory();
    const outside = await mkdtemp(join(tmpdir(), 'vmark-scan-outside-'));
    try {
      await writeFile(join(outside, 'elena.md'), V2);
      await unlink(join(root, 'cast', 'elena.md'));
      await symlink(join(outside, 'elena.md'), join(root, 'cast', 'elena.md'));
      const result = await scan();
      expect(result.diagnostics.map((d) => [d.code, d.path])).toEqual([['symlink', 'cast/elena.md']]);
      expect(result.unverified).toEqual([A]);
      expect(result.absent).toEqual([]);
      expect(result.appended).toBe(0);
      await expectIdempotent();
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
  });

  it('reports invalid UTF-8 and records nothing for the object in that file', async () => {
    await withHistory();
    await put('cast/elena.md', Buffer.concat([Buffer.from(V2), Buffer.from([0xc3, 0x28])]));
    const result = await scan();
    expect(result.diagnostics.map((d) => [d.code, d.path])).toEqual([['invalid-utf8', 'cast/elena.md']]);
    expect(result.unverified).toEqual([A]);
    expect(result.appended).toBe(0);
    await expectIdempotent();
  });

  it('adopts an unknown id with a registration and a root transformation', async () => {
    await withHistory();
    const text = `---\nvmark:\n  id: ${B}\n---\nThe harbour.\n`;
    await put('places/harbour.md', text);
    await put('notes/plain.md', 'no identity here\n');
    const appended: [number, number][] = [];
    const result = await scan({ onAppended: (done, total) => appended.push([done, total]) });
    expect(result.appended).toBe(2);
    expect(appended).toEqual([
      [1, 2],
      [2, 2],
    ]);
    const h = contentHashOfBytes(Buffer.from(text));
    const entries = await mine();
    expect(entries.map((e) => [e.kind, e.body])).toEqual([
      ['object-registered', { object: B, path: 'places/harbour.md', schema: null, derived_from: [] }],
      [
        'transformation',
        {
          inputs: [],
          outputs: [{ object: B, revision: revisionId(h, []), content_hash: h, parents: [] }],
          agent: { type: 'external' },
          intent: { kind: 'observed-external', summary: 'adopted: places/harbour.md' },
          confidence: 'unknown',
        },
      ],
    ]);
    await expectIdempotent();
  });

  it('never creates .vmark/: not for a plain workspace, not even when it finds something to record', async () => {
    await put('plain.md', 'nothing\n');
    expect((await scan()).appended).toBe(0);
    await put('cast/elena.md', V1);
    const result = await scan();
    expect(result.entries).toHaveLength(2);
    expect(result.appended).toBe(0);
    expect(result.diagnostics.map((d) => d.code)).toEqual(['not-initialized']);
    expect(await readdir(root)).toEqual(['cast', 'plain.md']);
  });

  it('records nothing while the ledger holds lines of a later format', async () => {
    await withHistory();
    await put(`.vmark/ledger/${B}.jsonl`, '{"format":1,"id":"x"}\n');
    await put('cast/elena.md', V2);
    const before = await snapshot();
    const result = await scan();
    expect(result.entries).toHaveLength(1);
    expect(result.appended).toBe(0);
    expect(result.diagnostics.map((d) => d.code)).toEqual(['ledger-incomplete']);
    expect(await snapshot()).toEqual(before);
  });
});

describe('scanWorkspace in a git repository', () => {
  const git = (...args: string[]): string => isolatedGit(root, root, ...args);
  async function commitDoc(text: string, message: string): Promise<string> {
    await put('cast/elena.md', text);
    git('add', 'cast/elena.md');
    git('commit', '-q', '-m', message);
    return git('rev-parse', 'HEAD');
  }
  const h2 = contentHashOfBytes(Buffer.from(V2));
  const R2 = revisionId(h2, [R1]);

  beforeEach(async () => {
    git('init', '-q', '-b', 'main');
    // The ledger stays out of git here, so a checkout leaves it as it is.
    await put('.gitignore', '.vmark/\n');
    await put(`.vmark/ledger/${OTHER}.jsonl`, HISTORY);
  });

  it('records a branch switch to a recorded state as one navigation, and nothing on the next scan', async () => {
    const c1 = await commitDoc(V1, 'v1');
    git('checkout', '-q', '-b', 'draft');
    const c2 = await commitDoc(V2, 'v2');
    // Edited and committed on draft: the person's edit, recorded on the head.
    const committed = await scan({ lastHead: c1 });
    expect(committed.git).toEqual({ kind: 'commit' });
    expect(committed.entries.map((e) => e.body)).toMatchObject([
      { agent: { type: 'external' }, outputs: [{ revision: R2 }] },
    ]);

    // The capture that last saw HEAD saw draft; switching back to main brings v1 back.
    git('checkout', '-q', 'main');
    const switched = await scan({ lastHead: c2 });
    expect(switched.appended).toBe(1);
    const entries = await mine();
    expect(entries.map((e) => [e.kind, e.body])).toEqual([
      ['transformation', expect.objectContaining({ outputs: [expect.objectContaining({ revision: R2 })] })],
      ['navigation', { git: { op: 'branch-switch', from: c2, to: c1, ref: 'main' } }],
    ]);
    // A process that did not see the switch learns where HEAD was from the ledger; the one
    // that did passes the HEAD its scan returned.
    await expectIdempotent();
    await expectIdempotent({ lastHead: switched.head });

    // An edit made after the switch is an outside edit again.
    const edited = V1.replace('a smith', 'a baker');
    await put('cast/elena.md', edited);
    const after = await scan();
    expect(after.git).toEqual({ kind: 'none' });
    expect(after.entries.map((e) => e.body)).toMatchObject([
      { agent: { type: 'external' }, outputs: [{ parents: [R2] }] },
    ]);
  });

  it('records a switch to content the ledger never saw as a navigation only', async () => {
    const c1 = await commitDoc(V1, 'v1');
    git('checkout', '-q', '-b', 'draft');
    const c2 = await commitDoc(V2, 'v2');
    git('checkout', '-q', 'main');
    expect((await scan({ lastHead: c1 })).git).toEqual({ kind: 'none' });
    git('checkout', '-q', c2);
    const detached = await scan({ lastHead: c1 });
    expect(detached.entries.map((e) => [e.kind, e.body])).toEqual([
      ['navigation', { git: { op: 'detach', from: c1, to: c2, ref: null } }],
    ]);
    expect(detached.appended).toBe(1);
  });

  it('records content a conflicted merge wrote as a git transformation on the head', async () => {
    await commitDoc(V1, 'v1');
    git('checkout', '-q', '-b', 'side');
    await commitDoc(V2, 'side');
    git('checkout', '-q', 'main');
    await commitDoc(V1.replace('a smith', 'a miner'), 'main');
    expect(() => git('merge', '-q', 'side')).toThrow();
    const merged = await scan();
    expect(merged.git).toMatchObject({ kind: 'mutation', op: 'merge' });
    const [entry] = await mine();
    expect(entry?.body).toMatchObject({
      inputs: [],
      outputs: [{ object: A, parents: [R1] }],
      agent: { type: 'git' },
      intent: { kind: 'git-merge', summary: 'git merge: cast/elena.md' },
      confidence: 'unknown',
    });
    await expectIdempotent();
  });
});
