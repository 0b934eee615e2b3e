import {
  mkdtemp,
  readFile,
  realpath,
  rename,
  rm,
  truncate,
  writeFile,
  cp,
  mkdir,
  unlink,
} from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GrantRecord } from '../../delegation/grant-record.js';
import { contentHashOfBytes, revisionId } from '../../kernel/identity/index.js';
import { appendEntries, createEntry, ensureLayout, type LedgerEntry } from '../../kernel/ledger/index.js';
import { SweepThread } from '../../kernel/scan/index.js';
import { CoherenceWorkspace } from '../coherence-workspace.js';
import { indexPath, INDEX_VERSION } from './index-file.js';

const WRITER = '0190a000-0000-7000-8000-000000000fff';
const uuid = (n: number): string => `0190a000-0000-7000-8000-${n.toString(16).padStart(12, '0')}`;
const SOURCES = [uuid(0xa1), uuid(0xa2)];
const DERIVED = [uuid(0xb1), uuid(0xb2)];

let base: string;
let root: string;
let open: CoherenceWorkspace[] = [];
let runs = 0;

beforeEach(async () => {
  base = await realpath(await mkdtemp(path.join(os.tmpdir(), 'vmark-index-')));
  root = path.join(base, 'vault');
  await mkdir(root);
});
afterEach(async () => {
  for (const w of open) {
    w.dispose();
    await w.flush();
  }
  open = [];
  await rm(base, { recursive: true, force: true });
});

const doc = (id: string, body: string): string => `---\nvmark:\n  id: ${id}\n---\n\n${body}\n`;
const hashOf = (text: string): string => contentHashOfBytes(Buffer.from(text, 'utf8'));

function workspace(at = root): CoherenceWorkspace {
  let n = 0;
  const w = new CoherenceWorkspace(
    at,
    WRITER,
    new GrantRecord(path.join(base, 'home')),
    {
      now: () => new Date(),
      newId: () => uuid(0x100000 + Math.floor(Math.random() * 0xfffff) * 16 + (n++ % 16)),
    },
    // Every walk's signatures are swept with the helper thread, as a large workspace's are (ADR 82).
    new SweepThread({ chunkFiles: 1, fromFiles: 1, spare: () => true }),
  );
  open.push(w);
  return w;
}

/**
 * Two sources and two derived documents; each derived one was made from a source's first
 * revision, and the sources have moved on since: two version-stale edges.
 */
async function makeVault(): Promise<void> {
  const factory = {
    writer: WRITER,
    now: () => new Date(),
    newId: (() => {
      let n = 0;
      return () => uuid(0x2000 + n++);
    })(),
  };
  const entries: LedgerEntry[] = [];
  const heads: string[] = [];
  for (const [i, id] of SOURCES.entries()) {
    const text = doc(id, `source ${i}, second draft`);
    await writeFile(path.join(root, `s${i}.md`), text);
    const first = revisionId(hashOf(doc(id, `source ${i}`)), []);
    const second = revisionId(hashOf(text), [first]);
    heads.push(first);
    entries.push(
      createEntry(
        'object-registered',
        { object: id, path: `s${i}.md`, schema: null, derived_from: [] },
        factory,
      ),
    );
    for (const [revision, hash, parents] of [
      [first, hashOf(doc(id, `source ${i}`)), []],
      [second, hashOf(text), [first]],
    ] as const)
      entries.push(
        createEntry(
          'transformation',
          {
            inputs: [],
            outputs: [{ object: id, revision, content_hash: hash, parents: [...parents] }],
            agent: { type: 'human' },
            intent: { kind: 'edit', summary: 's' },
            confidence: 'exact',
          },
          factory,
        ),
      );
  }
  for (const [i, id] of DERIVED.entries()) {
    const text = doc(id, `derived ${i}`);
    await writeFile(path.join(root, `d${i}.md`), text);
    entries.push(
      createEntry(
        'object-registered',
        { object: id, path: `d${i}.md`, schema: null, derived_from: [] },
        factory,
      ),
    );
    entries.push(
      createEntry(
        'transformation',
        {
          inputs: [{ object: SOURCES[i] as string, revision: heads[i] as string, role: 'direct' }],
          outputs: [
            { object: id, revision: revisionId(hashOf(text), []), content_hash: hashOf(text), parents: [] },
          ],
          agent: { type: 'model', id: 'm' },
          intent: { kind: 'generate', summary: 'g' },
          confidence: 'inferred',
        },
        factory,
      ),
    );
  }
  await ensureLayout(path.join(root, '.vmark'));
  await appendEntries(path.join(root, '.vmark'), WRITER, entries);
}

/** The edges a workspace answers, and whether it read the ledger to answer them. */
async function edgesOf(w: CoherenceWorkspace): Promise<{ edges: unknown; readLedger: boolean }> {
  let readLedger = false;
  const edges = await w.edges((_done, _total, message) => {
    if (message?.includes('ledger segments')) readLedger = true;
  });
  return { edges, readLedger };
}

/** An index written by a long-running workspace that answered once. */
async function indexed(): Promise<unknown> {
  const first = workspace();
  const { edges } = await edgesOf(first);
  await first.flush();
  return edges;
}

const segment = (): string => path.join(root, '.vmark', 'ledger', `${WRITER}.jsonl`);

describe('the on-disk index', () => {
  it('lets a new process answer without reading the ledger, as the ledger would', async () => {
    await makeVault();
    const expected = await indexed();
    expect(expected).toHaveLength(2);
    const fresh = await edgesOf(workspace());
    expect(fresh).toEqual({ edges: expected, readLedger: false });
    // It keeps out of git by itself.
    expect(await readFile(path.join(root, '.vmark', 'index', '.gitignore'), 'utf8')).toBe('*\n');
  });

  const damage: [string, () => Promise<void>][] = [
    [
      'flipped bytes',
      async () => {
        const bytes = await readFile(indexPath(path.join(root, '.vmark')));
        const at = bytes.length - 40;
        bytes[at] = (bytes[at] ?? 0) ^ 0x20;
        await writeFile(indexPath(path.join(root, '.vmark')), bytes);
      },
    ],
    ['truncated', () => truncate(indexPath(path.join(root, '.vmark')), 200)],
    [
      'another version',
      async () => {
        const file = indexPath(path.join(root, '.vmark'));
        const text = await readFile(file, 'utf8');
        await writeFile(file, text.replace(`"version":${INDEX_VERSION}`, `"version":${INDEX_VERSION + 1}`));
      },
    ],
    [
      'an index of the previous format (version 2, one JSON document), under a sound checksum',
      async () => {
        const { createHash } = await import('node:crypto');
        const file = indexPath(path.join(root, '.vmark'));
        const text = await readFile(file, 'utf8');
        const now = text.slice(text.indexOf('\n') + 1).split('\n');
        const head = JSON.parse(now[0] as string) as Record<string, unknown>;
        const rows = now.slice(1).map((row) => row.split('\t'));
        // What version 2 held: the walk's digests and the cache's signatures as JSON lists.
        const body = JSON.stringify({
          ...head,
          files: undefined,
          cache: rows.map(([p, sig, id, schema, hash]) => [
            p,
            ...(sig ?? '').split(':'),
            id ? [id, schema || null, hash] : null,
          ]),
          walk: {
            files: rows.map(([p, , id, schema, hash]) => [p, id ? [id, schema || null, hash] : null]),
            coverage: head.coverage,
          },
        });
        const header = JSON.stringify({
          format: 'vmark-coherence-index',
          version: 2,
          length: Buffer.byteLength(body),
          sha256: createHash('sha256').update(body).digest('hex'),
        });
        await writeFile(file, `${header}\n${body}`);
      },
    ],
    [
      'a payload of another shape under a sound checksum',
      async () => {
        const { createHash } = await import('node:crypto');
        const body = JSON.stringify({ edges: [] });
        const header = JSON.stringify({
          format: 'vmark-coherence-index',
          version: INDEX_VERSION,
          length: Buffer.byteLength(body),
          sha256: createHash('sha256').update(body).digest('hex'),
        });
        await writeFile(indexPath(path.join(root, '.vmark')), `${header}\n${body}`);
      },
    ],
  ];
  for (const [what, spoil] of damage) {
    it(`is rebuilt, not believed, when damaged: ${what}`, async () => {
      await makeVault();
      const expected = await indexed();
      await spoil();
      const fresh = workspace();
      expect(await edgesOf(fresh)).toEqual({ edges: expected, readLedger: true });
      await fresh.flush();
      expect(await edgesOf(workspace())).toEqual({ edges: expected, readLedger: false });
    });
  }

  it('is not believed in another workspace it was copied into', async () => {
    await makeVault();
    await indexed();
    const copy = path.join(base, 'copy');
    await cp(root, copy, { recursive: true });
    // The copy's ledger loses a derived document's edge: the copied answer would list it.
    const ledger = path.join(copy, '.vmark', 'ledger', `${WRITER}.jsonl`);
    const lines = (await readFile(ledger, 'utf8')).split('\n').filter(Boolean);
    await writeFile(ledger, lines.slice(0, -1).join('\n') + '\n');
    const answer = await edgesOf(workspace(copy));
    expect(answer.readLedger).toBe(true);
    expect(answer.edges).toHaveLength(1);
  });

  it('is not believed when the ledger was rolled back behind it (the index is newer)', async () => {
    await makeVault();
    const before = await readFile(segment());
    await indexed();
    // Rolled back to its first lines, then grown again to the very same size with other bytes.
    const lines = before.toString('utf8').split('\n').filter(Boolean);
    const kept = lines.slice(0, -1).join('\n') + '\n';
    await writeFile(segment(), kept);
    const ledgerOnly = await edgesOf(workspace());
    expect(ledgerOnly.readLedger).toBe(true);
    expect(ledgerOnly.edges).toHaveLength(1);
    // Truncated to nothing, padded back to the size the index recorded.
    await writeFile(segment(), Buffer.alloc(before.length, 0x0a));
    const padded = await edgesOf(workspace());
    expect(padded).toEqual({ edges: [], readLedger: true });
  });

  it('is not believed once a file changed, and the answer follows the file', async () => {
    await makeVault();
    await indexed();
    // The first derived document regenerated outside: its edge is no longer live.
    await writeFile(path.join(root, 'd0.md'), doc(DERIVED[0] as string, 'rewritten by hand'));
    const answer = await edgesOf(workspace());
    expect(answer.readLedger).toBe(true);
    expect(answer.edges).toHaveLength(1);
  });
});

/** One random step of a workspace's life. */
type Step =
  | { readonly t: 'capture'; readonly derived: number; readonly source: number; readonly text: number }
  | { readonly t: 'edit'; readonly doc: number; readonly text: number }
  | { readonly t: 'move'; readonly doc: number }
  | { readonly t: 'untracked'; readonly n: number; readonly identity: boolean }
  | { readonly t: 'delete'; readonly doc: number }
  /** The document moved into the folder of documents (made if missing). */
  | { readonly t: 'nest'; readonly doc: number }
  /** The folder of documents renamed, moved out of the workspace, or moved back in. */
  | { readonly t: 'folder'; readonly to: 'rename' | 'out' | 'in' };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ t: fc.constant('capture' as const), derived: fc.nat(1), source: fc.nat(1), text: fc.nat(3) }),
  fc.record({ t: fc.constant('edit' as const), doc: fc.nat(3), text: fc.nat(3) }),
  fc.record({ t: fc.constant('move' as const), doc: fc.nat(3) }),
  fc.record({ t: fc.constant('untracked' as const), n: fc.nat(2), identity: fc.boolean() }),
  fc.record({ t: fc.constant('delete' as const), doc: fc.nat(3) }),
  fc.record({ t: fc.constant('nest' as const), doc: fc.nat(3) }),
  fc.record({
    t: fc.constant('folder' as const),
    to: fc.constantFrom<('rename' | 'out' | 'in')[]>('rename', 'out', 'in'),
  }),
);

/** Whole walks and walks of the changed paths only, of every long-running workspace so far. */
const walks = { whole: 0, changes: 0 };

/**
 * Lives through the steps with a long-running workspace and, after each, compares its edges with
 * a new process answering from the index and one answering from the ledger alone.
 */
async function liveThrough(steps: readonly Step[]): Promise<void> {
  // A folder per run: a workspace of the last run may still be writing its index.
  root = path.join(base, `vault-${++runs}`);
  await mkdir(root);
  await makeVault();
  const ids = [...SOURCES, ...DERIVED];
  const paths = new Map(ids.map((id, i) => [id, i < 2 ? `s${i}.md` : `d${i - 2}.md`]));
  const long = workspace();
  await long.edges();
  /** The folder of documents: its name in the workspace, or outside it (`parked`). */
  const folder = { name: 'f', renames: 0, parked: false };
  const parked = path.join(base, `parked-${runs}`);
  /** Moves the documents whose paths start with `from` to start with `to` (both `/`-ended). */
  const movePaths = (from: string, to: string): void => {
    for (const [id, p] of paths) if (p.startsWith(from)) paths.set(id, to + p.slice(from.length));
  };
  /** Whether `p` is in the workspace (not in the folder while it is moved out). */
  const inWorkspace = (p: string): boolean => !folder.parked || !p.startsWith(`${folder.name}/`);
  for (const s of steps) {
    if (s.t === 'capture') {
      const out = DERIVED[s.derived] as string;
      const input = SOURCES[s.source] as string;
      const outPath = paths.get(out) as string;
      if (!inWorkspace(outPath)) continue;
      const inPath = paths.get(input) as string;
      const before = await readFile(path.join(root, outPath), 'utf8').catch(() => null);
      const inText = await readFile(path.join(root, inPath), 'utf8').catch(() => null);
      const text = doc(out, `captured ${s.text}`);
      await writeFile(path.join(root, outPath), text);
      if (inText !== null)
        await long.capture({
          output: { path: outPath, text },
          before,
          inputs: [{ path: inPath, text: inText }],
          agent: { type: 'model', id: 'm' },
          intent: { kind: 'edit', summary: 'e' },
          confidence: 'inferred',
        });
    } else if (s.t === 'edit') {
      const id = ids[s.doc] as string;
      if (!inWorkspace(paths.get(id) as string)) continue;
      await writeFile(path.join(root, paths.get(id) as string), doc(id, `edited ${s.text}`));
    } else if (s.t === 'move') {
      const id = ids[s.doc] as string;
      const from = paths.get(id) as string;
      if (!inWorkspace(from)) continue;
      const to = path.posix.join(path.posix.dirname(from), `moved-${path.posix.basename(from)}`);
      await rename(path.join(root, from), path.join(root, to)).catch(() => undefined);
      paths.set(id, to);
    } else if (s.t === 'untracked') {
      const text = s.identity ? doc(uuid(0xc00 + s.n), `new ${s.n}`) : `# new ${s.n}\n`;
      await writeFile(path.join(root, `new-${s.n}.md`), text);
    } else if (s.t === 'delete') {
      if (!inWorkspace(paths.get(ids[s.doc] as string) as string)) continue;
      await unlink(path.join(root, paths.get(ids[s.doc] as string) as string)).catch(() => undefined);
    } else if (s.t === 'nest') {
      const id = ids[s.doc] as string;
      const from = paths.get(id) as string;
      const to = `${folder.name}/${path.posix.basename(from)}`;
      if (!folder.parked && !from.includes('/')) {
        await mkdir(path.join(root, folder.name), { recursive: true });
        await rename(path.join(root, from), path.join(root, to)).catch(() => undefined);
        paths.set(id, to);
      }
    } else if (s.t === 'folder' && s.to === 'rename' && !folder.parked) {
      const to = `f${++folder.renames}`;
      if (
        await rename(path.join(root, folder.name), path.join(root, to)).then(
          () => true,
          () => false,
        )
      ) {
        movePaths(`${folder.name}/`, `${to}/`);
        folder.name = to;
      }
    } else if (s.t === 'folder' && s.to === 'out' && !folder.parked) {
      // Out of the workspace, as far as either process can see: its documents are gone.
      if (
        await rename(path.join(root, folder.name), parked).then(
          () => true,
          () => false,
        )
      )
        folder.parked = true;
    } else if (s.t === 'folder' && s.to === 'in' && folder.parked) {
      const to = `back${++folder.renames}`;
      await rename(parked, path.join(root, to));
      movePaths(`${folder.name}/`, `${to}/`);
      folder.name = to;
      folder.parked = false;
    }
    const longRun = await long.edges();
    await long.flush();
    const indexReader = workspace();
    const fromIndex = await edgesOf(indexReader);
    // Nothing changed since the long-running one answered: the index answers.
    expect(fromIndex).toEqual({ edges: longRun, readLedger: false });
    const file = indexPath(path.join(root, '.vmark'));
    await rename(file, `${file}.aside`);
    const ledgerReader = workspace();
    const fromLedger = await ledgerReader.edges();
    // Both are done before the next step: one still waiting to write the index of this step's
    // answer could write it over the next step's (rightly not believed then, but not the answer
    // from the index the next step expects).
    for (const w of [indexReader, ledgerReader]) {
      w.dispose();
      await w.flush();
    }
    await rename(`${file}.aside`, file);
    expect(fromLedger).toEqual(longRun);
  }
  const { whole, changes } = long.walks;
  walks.whole += whole;
  walks.changes += changes;
  for (const w of open) {
    w.dispose();
    await w.flush();
  }
  open = [];
}

describe('a new process and a long-running one', () => {
  it('answer alike after folders are renamed, moved out and moved back in', async () => {
    await liveThrough([
      { t: 'nest', doc: 0 },
      { t: 'nest', doc: 2 },
      { t: 'folder', to: 'rename' },
      { t: 'edit', doc: 0, text: 1 },
      { t: 'folder', to: 'out' },
      { t: 'capture', derived: 0, source: 0, text: 2 },
      { t: 'folder', to: 'in' },
      { t: 'edit', doc: 2, text: 3 },
    ]);
  });

  it('answer alike after a move, a delete and a capture (a counterexample found once)', async () => {
    await liveThrough([
      { t: 'move', doc: 1 },
      { t: 'delete', doc: 1 },
      { t: 'capture', derived: 0, source: 0, text: 0 },
    ]);
  });

  it('answer alike on random histories, from the index and from the ledger alone', async () => {
    await fc.assert(fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 5 }), liveThrough), {
      numRuns: Number(process.env.COH_RUNS ?? 12),
      ...(process.env.COH_SEED ? { seed: Number(process.env.COH_SEED) } : {}),
    });
    // The long-running workspaces re-checked only the changed paths (through their real watch),
    // not a whole walk each time: the property covered that path.
    expect(walks.changes).toBeGreaterThan(walks.whole);
  });
});
