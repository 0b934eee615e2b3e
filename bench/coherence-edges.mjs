#!/usr/bin/env node
/**
 * `coherence.edges` on a large vault against `git status` on the same tree, in the same run
 * (DESIGN §8; the issue's target: warm ≤ 2× `git status`).
 *
 * Generates, deterministically, into a temp folder, a git repository holding a vault of
 * Markdown documents in nested folders (default 20,000), each carrying a `vmark.id` front-matter
 * identity, and a format-0 ledger of (default) 100,000 entries under `.vmark/ledger/`: one
 * `object-registered` and one root transformation per document, edits of the "source"
 * documents, regenerations of the "derived" ones from 1–3 sources (`direct` inputs, the
 * dependency edges; sometimes a `contextual` one, which is none), a late round of source edits
 * that leaves a share of the edges stale, and ratifications and waivers of some stale edges.
 * The last revision of every document hashes to the file's real content, so a scan finds
 * nothing to record. Everything is committed.
 *
 * Then it measures, interleaving nothing (the two do not share state):
 * - the peer: `git status --porcelain` in the vault (several runs after an untimed one; median);
 * - `coherence {action: "edges"}` through the real product, `node core/dist/bundle/main.js mcp
 *   --workspace <vault>` driven by the SDK Client over stdio: cold = the first call in a fresh
 *   process with no index, warm = further calls in the same process with nothing changed (median);
 * - in-process, the kernel steps behind it (read the ledger, walk the vault, project the edges),
 *   cold and, where the built kernel has the caches, warm, to show what dominates.
 *
 * Every answer is checked (the number of open edges the generator knows it made, and that the
 * ledger was left as committed); a wrong answer ends the run with exit code 1, slowness never does.
 *
 *   node bench/coherence-edges.mjs [--quick] [--docs N] [--entries N] [--git-runs N]
 *                                  [--warm-runs N] [--tmp DIR] [--keep] [--generate-only DIR]
 *
 * Environment: BENCH_QUICK=1, BENCH_TMPDIR, BENCH_COHERENCE_DIST (another build of
 * plugins/coherence/dist to time in-process). Needs `npm run build`. The last line is
 * `BENCH_JSON {...}`.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs, promisify } from 'node:util';
import { createHash } from 'node:crypto';
import { markdownBody } from './markdown-fixture.mjs';
import { callTool, closeAll, connectStdio } from './mcp-stdio.mjs';
import { fmtMs, fmtRatio, ratio, round, summarize, table } from './stats.mjs';

const run = promisify(execFile);
const REPO = fileURLToPath(new URL('..', import.meta.url));
const VMARK_CLI = path.join(REPO, 'core', 'dist', 'bundle', 'main.js');
const KERNEL_DIST = process.env.BENCH_COHERENCE_DIST ?? path.join(REPO, 'plugins', 'coherence', 'dist');
const PEER_NAME = 'git status --porcelain';
/** The issue's bar: warm `coherence.edges` over `git status`, medians. */
const TARGET_WARM = 2.0;

const WRITER_HUMAN = '01900000-0000-7000-8000-0000000000a1';
const WRITER_MODEL = '01900000-0000-7000-8000-0000000000b2';
const WRITER_AGENT = '01900000-0000-7000-8000-0000000000c3';
/** Segments rotate here, as the writer does (vmark-notes §7.1). */
const ROTATE_AT = 8 * 1024 * 1024;
const T0 = Date.UTC(2026, 0, 5, 9, 0, 0);

// ---------------------------------------------------------------------------------------------
// Generation

function generator(seed) {
  let state = seed >>> 0;
  return (limit) => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state % limit;
  };
}

const hex = (n, width) => n.toString(16).padStart(width, '0');

/** A UUIDv7-shaped id: the millisecond, then a counter where v7 has random bits. */
function uuid7(ms, counter) {
  const t = hex(ms, 12);
  const c = hex(counter, 18);
  return `${t.slice(0, 8)}-${t.slice(8, 12)}-7${c.slice(0, 3)}-8${c.slice(3, 6)}-${c.slice(6, 18)}`;
}

const sha256 = (text) => createHash('sha256').update(text).digest('hex');

async function kernel(sub) {
  return import(pathToFileURL(path.join(KERNEL_DIST, 'kernel', sub, 'index.js')).href);
}

/** Area/topic/doc: three levels, a few dozen documents per folder. */
function docPath(i) {
  return `area-${hex(i % 16, 2)}/topic-${hex(Math.floor(i / 16) % 32, 2)}/doc-${String(i).padStart(5, '0')}.md`;
}

function docText(i, id, source) {
  const body = markdownBody(500 + ((i * 7919) % 1500), i + 1);
  return (
    `---\ntitle: Document ${i}\nvmark:\n  id: ${id}\n  schema: ${source ? 'source' : 'derived'}\n---\n\n` +
    `# Document ${i}\n\n${body}`
  );
}

/** Appends lines to one writer's segments, rotating as the writer does. */
class SegmentWriter {
  constructor(dir, writer) {
    this.dir = dir;
    this.writer = writer;
    this.rotation = 0;
    this.size = 0;
    this.chunks = [];
  }
  name() {
    return this.rotation === 0
      ? `${this.writer}.jsonl`
      : `${this.writer}-${String(this.rotation).padStart(3, '0')}.jsonl`;
  }
  async push(line) {
    if (this.size >= ROTATE_AT) {
      await this.flush();
      this.rotation += 1;
      this.size = 0;
    }
    this.chunks.push(line);
    this.size += Buffer.byteLength(line);
  }
  async flush() {
    if (this.chunks.length === 0) return;
    await fs.appendFile(path.join(this.dir, this.name()), this.chunks.join(''));
    this.chunks = [];
  }
}

/**
 * Writes the vault and its ledger into `vault` (which must not exist) and commits it.
 * @returns what was made, including the open edges `coherence.edges` must list.
 */
export async function generateVault(vault, { docs = 20_000, entries = 100_000, seed = 20260718 } = {}) {
  const { contentHashOfBytes, revisionId } = await kernel('identity');
  const next = generator(seed);
  const sources = Math.max(1, Math.floor(docs / 4));
  // Few late edits: a realistic breakdown (some sixty open edges) that fits the output bound.
  const lateEdits = Math.max(1, Math.floor(docs / 2000));
  const ratifications = Math.max(1, Math.floor(docs / 8000));
  const waivers = ratifications;
  const earlyEdits = Math.floor(entries * 0.15);
  const regenerations = entries - 2 * docs - earlyEdits - lateEdits - ratifications - waivers;
  if (regenerations < 0) throw new Error(`--entries ${entries} is too few for ${docs} documents`);

  const ids = Array.from({ length: docs }, (_, i) => uuid7(T0 - 86_400_000 + i, 0x10000 + i));
  const isSource = (i) => i < sources;

  // Pass 1: the order of events, so the last revision of each document is known in advance.
  const events = [];
  for (let i = 0; i < docs; i++) events.push({ kind: 'register', obj: i }, { kind: 'root', obj: i });
  for (let k = 0; k < earlyEdits; k++) events.push({ kind: 'edit', obj: next(sources) });
  for (let k = 0; k < regenerations; k++) events.push({ kind: 'edit', obj: sources + next(docs - sources) });
  const late = new Set();
  while (late.size < Math.min(lateEdits, sources)) late.add(next(sources));
  for (const obj of late) events.push({ kind: 'edit', obj });
  const revisions = new Array(docs).fill(0);
  for (const e of events) if (e.kind !== 'register') revisions[e.obj] += 1;

  // The files, whose hashes the last revisions must carry.
  const realHash = new Array(docs);
  let fileBytes = 0;
  const made = new Set();
  for (let i = 0; i < docs; i++) {
    const rel = docPath(i);
    const dir = path.join(vault, path.dirname(rel));
    if (!made.has(dir)) {
      await fs.mkdir(dir, { recursive: true });
      made.add(dir);
    }
    const bytes = Buffer.from(docText(i, ids[i], isSource(i)));
    fileBytes += bytes.length;
    realHash[i] = contentHashOfBytes(bytes);
    await fs.writeFile(path.join(vault, rel), bytes);
  }
  // A few files that are no objects (no identity), as a real vault has.
  for (let a = 0; a < 16; a++)
    await fs.writeFile(path.join(vault, `area-${hex(a, 2)}`, 'README.md'), `# Area ${a}\n`);

  const vmark = path.join(vault, '.vmark');
  const ledgerDir = path.join(vmark, 'ledger');
  await fs.mkdir(ledgerDir, { recursive: true });
  await fs.writeFile(path.join(vmark, '.gitignore'), 'index.db*\n');
  await fs.writeFile(path.join(vmark, '.gitattributes'), 'ledger/*.jsonl merge=union\n');
  const writers = {
    [WRITER_HUMAN]: new SegmentWriter(ledgerDir, WRITER_HUMAN),
    [WRITER_MODEL]: new SegmentWriter(ledgerDir, WRITER_MODEL),
    [WRITER_AGENT]: new SegmentWriter(ledgerDir, WRITER_AGENT),
  };

  // Pass 2: the entries, in time order.
  let seq = 0;
  let ledgerBytes = 0;
  const emit = async (writer, kind, body) => {
    const ms = T0 + seq * 1000;
    const entry = {
      format: 0,
      id: uuid7(ms, 2 * seq),
      kind,
      time: new Date(ms).toISOString(),
      writer,
      idem: uuid7(ms, 2 * seq + 1),
      body,
    };
    seq += 1;
    const line = `${JSON.stringify(entry)}\n`;
    ledgerBytes += Buffer.byteLength(line);
    await writers[writer].push(line);
    return entry.id;
  };
  const head = new Array(docs).fill(null);
  const count = new Array(docs).fill(0);
  const lastTxf = new Array(docs).fill(null);
  const transformation = async (obj, inputs) => {
    count[obj] += 1;
    const last = count[obj] === revisions[obj];
    const hash = last ? realHash[obj] : `sha256:${sha256(`bench ${obj} ${count[obj]}`)}`;
    const parents = head[obj] === null ? [] : [head[obj]];
    const revision = revisionId(hash, parents);
    const source = isSource(obj);
    const body = {
      inputs: inputs.map(({ src, role }) => ({ object: ids[src], revision: head[src], role })),
      outputs: [{ object: ids[obj], revision, content_hash: hash, parents }],
      agent: source ? { type: 'human' } : { type: 'model', id: 'bench-model' },
      intent: source
        ? { kind: 'edit', summary: `edit ${docPath(obj)}` }
        : { kind: 'generate', summary: `regenerate ${docPath(obj)}` },
      confidence: source ? 'exact' : 'inferred',
    };
    const id = await emit(source ? WRITER_HUMAN : WRITER_MODEL, 'transformation', body);
    head[obj] = revision;
    if (last)
      lastTxf[obj] = {
        id,
        inputs: inputs.map((input, k) => ({ ...input, revision: body.inputs[k].revision })),
      };
  };
  const derivedInputs = () => {
    const n = 1 + next(3);
    const picked = new Set();
    while (picked.size < n) picked.add(next(sources));
    const inputs = [...picked].map((src) => ({ src, role: 'direct' }));
    if (next(4) === 0) inputs.push({ src: next(sources), role: 'contextual' });
    return inputs;
  };
  for (const e of events) {
    if (e.kind === 'register') {
      await emit(WRITER_HUMAN, 'object-registered', {
        object: ids[e.obj],
        path: docPath(e.obj),
        schema: isSource(e.obj) ? 'source' : 'derived',
        derived_from: [],
      });
    } else if (isSource(e.obj)) {
      await transformation(e.obj, []);
    } else {
      // A derived document starts as a person's draft; only regenerations read sources, so
      // the edges that go stale are those of sources edited after the last regeneration.
      await transformation(e.obj, e.kind === 'root' ? [] : derivedInputs());
    }
  }

  // The edges of each document's current revision; stale where the source moved on since.
  let liveEdges = 0;
  const stale = [];
  for (let obj = sources; obj < docs; obj++) {
    const txf = lastTxf[obj];
    txf.inputs.forEach((input, index) => {
      if (input.role !== 'direct') return;
      liveEdges += 1;
      if (head[input.src] !== input.revision)
        stale.push({ txf: txf.id, input: index, src: input.src, pinned: input.revision });
    });
  }
  // Resolve some stale edges: ratified ones turn fresh, waived ones stay listed (as `waived`).
  const resolved = stale.filter((_, k) => k % 3 === 0).slice(0, ratifications + waivers);
  for (const [k, edge] of resolved.entries()) {
    const ratify = k % 2 === 0;
    await emit(WRITER_AGENT, ratify ? 'ratification' : 'waiver', {
      edge: { txf: edge.txf, input: edge.input },
      upstream_object: ids[edge.src],
      pinned: edge.pinned,
      resolved_against: head[edge.src],
      actor: { type: 'human', id: 'bench' },
      reason: ratify ? null : 'bench: the change does not matter here',
      expires: null,
    });
  }
  const ratified = resolved.filter((_, k) => k % 2 === 0).length;
  for (const w of Object.values(writers)) await w.flush();
  // The counts add up by construction, unless too few edges went stale to resolve as many.
  if (seq !== entries) throw new Error(`generator made ${seq} entries, expected ${entries}`);

  await run('git', ['init', '-q', '-b', 'main'], { cwd: vault });
  await run('git', ['add', '-A'], { cwd: vault, maxBuffer: 64 * 1024 * 1024 });
  await run(
    'git',
    ['-c', 'user.name=bench', '-c', 'user.email=bench@example.com', 'commit', '-q', '-m', 'vault'],
    { cwd: vault, maxBuffer: 64 * 1024 * 1024 },
  );
  return {
    docs,
    files: docs + 16,
    entries: seq,
    file_bytes: fileBytes,
    ledger_bytes: ledgerBytes,
    live_edges: liveEdges,
    stale_edges: stale.length,
    ratified,
    waived: resolved.length - ratified,
    /** What `coherence.edges` lists: live non-fresh edges (the stale ones not ratified). */
    open_edges: stale.length - ratified,
  };
}

// ---------------------------------------------------------------------------------------------
// Measurement

async function timeGitStatus(vault, runs) {
  const once = async () => {
    const t0 = performance.now();
    const { stdout } = await run('git', ['status', '--porcelain'], {
      cwd: vault,
      maxBuffer: 64 * 1024 * 1024,
    });
    return { ms: performance.now() - t0, stdout };
  };
  // Untimed: git refreshes the racily clean index entries of a fresh commit once.
  await once();
  const samples = [];
  for (let i = 0; i < runs; i++) {
    const { ms, stdout } = await once();
    if (stdout !== '') throw new Error(`VERIFY: git status is not clean:\n${stdout.slice(0, 2000)}`);
    samples.push(ms);
  }
  return summarize(samples);
}

function rowsOf(answer) {
  if (Array.isArray(answer)) return answer;
  for (const key of ['edges', 'rows', 'items']) if (Array.isArray(answer?.[key])) return answer[key];
  throw new Error(
    `VERIFY: coherence.edges answered neither an array nor {edges: [...]}: ${JSON.stringify(answer).slice(0, 300)}`,
  );
}

/** `vmark mcp` on the vault, as an AI client starts it. */
function startVmark(context) {
  return connectStdio({
    name: 'vmark',
    command: process.execPath,
    args: [VMARK_CLI, 'mcp', '--workspace', context.vault],
    env: { VMARK_HOME: context.home },
    cwd: context.root,
  });
}

async function timeMcpEdges(context, warmRuns, made) {
  if (!existsSync(VMARK_CLI))
    return { skipped: `${path.relative(REPO, VMARK_CLI)} is missing: run \`npm run build\`` };
  await fs.rm(path.join(context.vault, '.vmark', 'index.db'), { force: true });
  // The first call below is the first ever: no on-disk index (ADR 46) left by anyone.
  await fs.rm(path.join(context.vault, '.vmark', 'index'), { recursive: true, force: true });
  const t0 = performance.now();
  const server = await startVmark(context);
  try {
    const started = performance.now();
    const { tools } = await server.client.listTools();
    if (!tools.some((t) => t.name === 'coherence')) {
      return {
        skipped: 'the built product has no `coherence` tool (plugins/coherence/manifest.json, npm run build)',
      };
    }
    const args = { action: 'edges', workspace_root: context.vault };
    const c0 = performance.now();
    const first = rowsOf(await callTool(server, 'coherence', args));
    const cold = performance.now() - c0;
    const answerBytes = Buffer.byteLength(JSON.stringify(first));
    const warm = [];
    for (let i = 0; i < warmRuns; i++) {
      const w0 = performance.now();
      const rows = rowsOf(await callTool(server, 'coherence', args));
      warm.push(performance.now() - w0);
      if (rows.length !== first.length)
        throw new Error(`VERIFY: warm call ${i} listed ${rows.length} edges, cold ${first.length}`);
    }
    const problems = [];
    // The scan inside coherence.edges may append; with a ledger that matches the files it must not.
    const { stdout: touched } = await run('git', ['status', '--porcelain', '--', '.vmark/ledger'], {
      cwd: context.vault,
    });
    if (touched !== '')
      problems.push(`coherence.edges changed the ledger of an unchanged vault:\n${touched.slice(0, 500)}`);

    // Warm after a change the call must look at. A new file without an identity: the walk
    // runs again (only that file is read), the ledger does not move.
    const afterScratch = [];
    for (let i = 0; i < 5; i++) {
      await fs.writeFile(path.join(context.vault, 'scratch.md'), `draft ${i}\n`);
      const t = performance.now();
      rowsOf(await callTool(server, 'coherence', args));
      afterScratch.push(performance.now() - t);
    }
    // An upstream edited outside: the scan records a revision, so the projection is made again.
    const upstream = path.join(context.vault, docPath(0));
    const original = await fs.readFile(upstream, 'utf8');
    const afterEdit = [];
    let lastRows = 0;
    for (let i = 0; i < 3; i++) {
      await fs.writeFile(upstream, `${original}\nedited ${i}\n`);
      const t = performance.now();
      lastRows = rowsOf(await callTool(server, 'coherence', args)).length;
      afterEdit.push(performance.now() - t);
    }
    // A session lasts longer than this one: let the process write its on-disk index (ADR 46)
    // of the last answer, as it does a second after answering (an earlier write may still land
    // before that), before it is stopped.
    const indexFile = path.join(context.vault, '.vmark', 'index', 'coherence.json');
    const answeredAt = Date.now();
    for (let i = 0; i < 100; i++) {
      const written = await fs.stat(indexFile).then(
        (s) => s.mtimeMs >= answeredAt + 900,
        () => false,
      );
      if (written) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    if (first.length !== made.open_edges)
      problems.push(
        `coherence.edges listed ${first.length} edges; the generator made ${made.open_edges} open ones`,
      );
    const states = {};
    for (const row of first) states[row.state] = (states[row.state] ?? 0) + 1;
    return {
      spawn_to_list_ms: round(started - t0),
      cold: cold,
      warm: summarize(warm),
      after_scratch: summarize(afterScratch),
      after_edit: summarize(afterEdit),
      last_rows: lastRows,
      rows: first.length,
      answer_bytes: answerBytes,
      states,
      problems,
    };
  } finally {
    await server.close();
  }
}

/**
 * The first call of a new process on a vault an earlier process answered for (and left its
 * on-disk index, ADR 46): what every new AI session after the first meets.
 */
async function timeIndexedStart(context, expectedRows) {
  if (!existsSync(VMARK_CLI)) return { skipped: 'no build' };
  const server = await startVmark(context);
  try {
    await server.client.listTools();
    const args = { action: 'edges', workspace_root: context.vault };
    const t = performance.now();
    const rows = rowsOf(await callTool(server, 'coherence', args));
    const ms = performance.now() - t;
    const problems =
      rows.length === expectedRows
        ? []
        : [`the new process listed ${rows.length} edges; the one before it ${expectedRows}`];
    return {
      ms,
      indexed: existsSync(path.join(context.vault, '.vmark', 'index', 'coherence.json')),
      problems,
    };
  } finally {
    await server.close();
  }
}

async function timeOnce(fn) {
  const t0 = performance.now();
  const value = await fn();
  return { ms: performance.now() - t0, value };
}

/** The kernel steps behind `coherence.edges`, in this process, to see where the time goes. */
async function timeKernel(context, warmRuns) {
  const ledger = await kernel('ledger');
  const scan = await kernel('scan');
  const projection = await kernel('projection');
  const vmark = path.join(context.vault, '.vmark');
  const out = {};
  const read = await timeOnce(() => ledger.readLedger(vmark));
  out.read_ledger = read.ms;
  out.entries = read.value.entries.length;
  out.quarantined = read.value.quarantined;
  out.walk_cold = (await timeOnce(() => scan.walkWorkspace(context.vault))).ms;
  const index = await timeOnce(() => scan.buildObjectIndex(read.value.entries));
  out.object_index = index.ms;
  const context0 = projection.resolveContext(projection.DEFAULT_CONTEXT_ID, []);
  const projected = await timeOnce(() => projection.projectEdges(read.value.entries, context0, new Date()));
  out.project_edges = projected.ms;
  out.breakdown_rows = projection.breakdown(projected.value).length;
  if (scan.WalkCache) {
    const cache = new scan.WalkCache();
    out.walk_cache_fill = (await timeOnce(() => scan.walkWorkspace(context.vault, { cache }))).ms;
    const samples = [];
    let cached = 0;
    for (let i = 0; i < warmRuns; i++) {
      const r = await timeOnce(() => scan.walkWorkspace(context.vault, { cache }));
      samples.push(r.ms);
      cached = r.value.files.filter((f) => f.bytes === undefined).length;
    }
    out.walk_warm = summarize(samples).median;
    out.walk_warm_cached_files = cached;
  }
  if (ledger.LedgerTail) {
    const tail = new ledger.LedgerTail(vmark);
    out.tail_first = (await timeOnce(() => tail.refresh())).ms;
    const samples = [];
    for (let i = 0; i < warmRuns; i++) samples.push((await timeOnce(() => tail.refresh())).ms);
    out.tail_warm = summarize(samples).median;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Report

function report(result, log) {
  const { made, git, mcp, kernelTimes } = result;
  log(
    `\nvault: ${made.files} Markdown files (${(made.file_bytes / 1e6).toFixed(1)} MB), ledger ${made.entries} entries ` +
      `(${(made.ledger_bytes / 1e6).toFixed(1)} MB); ${made.live_edges} live edges, ${made.stale_edges} stale, ` +
      `${made.ratified} ratified, ${made.waived} waived → ${made.open_edges} open`,
  );
  const rows = [['coherence.edges vs ' + PEER_NAME, 'median', 'p90', `ratio vs git status`]];
  rows.push([PEER_NAME + ` (n=${git.n})`, fmtMs(git.median), fmtMs(git.p90), '1.00×']);
  if (mcp.skipped === undefined) {
    rows.push([
      'coherence.edges cold (1st call ever, no index)',
      fmtMs(mcp.cold),
      '',
      fmtRatio(ratio(mcp.cold, git.median)),
    ]);
    if (mcp.indexed_start?.ms !== undefined)
      rows.push([
        `coherence.edges 1st call, new process, earlier one's index${mcp.indexed_start.indexed ? '' : ' (none found)'}`,
        fmtMs(mcp.indexed_start.ms),
        '',
        fmtRatio(ratio(mcp.indexed_start.ms, git.median)),
      ]);
    rows.push([
      `coherence.edges warm (n=${mcp.warm.n}, no changes)`,
      fmtMs(mcp.warm.median),
      fmtMs(mcp.warm.p90),
      fmtRatio(ratio(mcp.warm.median, git.median)),
    ]);
    rows.push([
      `  warm after a new untracked file (n=${mcp.after_scratch.n})`,
      fmtMs(mcp.after_scratch.median),
      fmtMs(mcp.after_scratch.p90),
      fmtRatio(ratio(mcp.after_scratch.median, git.median)),
    ]);
    rows.push([
      `  warm after an upstream edit (n=${mcp.after_edit.n})`,
      fmtMs(mcp.after_edit.median),
      fmtMs(mcp.after_edit.p90),
      fmtRatio(ratio(mcp.after_edit.median, git.median)),
    ]);
  }
  log(table(rows));
  if (mcp.skipped !== undefined) log(`  coherence.edges over MCP not measured: ${mcp.skipped}`);
  else
    log(
      `  spawn → tools/list ${fmtMs(mcp.spawn_to_list_ms)}; answer ${mcp.rows} rows, ${(mcp.answer_bytes / 1024).toFixed(0)} KiB; ` +
        `states ${JSON.stringify(mcp.states)}`,
    );
  if (kernelTimes) {
    const k = kernelTimes;
    const krows = [['kernel, in-process (' + path.relative(REPO, KERNEL_DIST) + ')', 'ms']];
    krows.push([`readLedger, ${k.entries} entries`, fmtMs(k.read_ledger)]);
    if (k.tail_first !== undefined)
      krows.push([
        'LedgerTail first refresh / warm refresh',
        `${fmtMs(k.tail_first)} / ${fmtMs(k.tail_warm)}`,
      ]);
    krows.push(['walkWorkspace, no cache', fmtMs(k.walk_cold)]);
    if (k.walk_warm !== undefined)
      krows.push([
        `walkWorkspace with WalkCache: fill / warm (${k.walk_warm_cached_files} cached)`,
        `${fmtMs(k.walk_cache_fill)} / ${fmtMs(k.walk_warm)}`,
      ]);
    krows.push(['buildObjectIndex', fmtMs(k.object_index)]);
    krows.push([`projectEdges (${k.breakdown_rows} open rows)`, fmtMs(k.project_edges)]);
    log('\n' + table(krows));
  }
}

// ---------------------------------------------------------------------------------------------
// Entry points

export async function runCoherenceEdgesBench({
  quick = false,
  docs,
  entries,
  gitRuns,
  warmRuns,
  tmpBase = os.tmpdir(),
  keep = false,
  kernelTimes = true,
  log = console.log,
} = {}) {
  const size = { docs: docs ?? (quick ? 2_000 : 20_000), entries: entries ?? (quick ? 10_000 : 100_000) };
  await fs.mkdir(tmpBase, { recursive: true });
  const root = await fs.realpath(await fs.mkdtemp(path.join(tmpBase, 'vmark-coherence-bench-')));
  const context = { root, vault: path.join(root, 'vault'), home: path.join(root, 'home') };
  try {
    await fs.mkdir(context.home, { recursive: true });
    log(
      `\n[coherence.edges] generating ${size.docs} documents and ${size.entries} ledger entries in ${context.vault}`,
    );
    const g0 = performance.now();
    const made = await generateVault(context.vault, size);
    log(`  generated and committed in ${fmtMs(performance.now() - g0)}`);
    const git = await timeGitStatus(context.vault, gitRuns ?? (quick ? 5 : 15));
    const mcp = await timeMcpEdges(context, warmRuns ?? (quick ? 5 : 15), made);
    if (mcp.skipped === undefined) mcp.indexed_start = await timeIndexedStart(context, mcp.last_rows);
    const problems = [...(mcp.problems ?? []), ...(mcp.indexed_start?.problems ?? [])];
    const kernel = kernelTimes ? await timeKernel(context, quick ? 3 : 5) : undefined;
    const result = { made, git, mcp, kernelTimes: kernel };
    report(result, log);
    for (const p of problems) log(`  PROBLEM: ${p}`);
    const summary = {
      ...made,
      peer: PEER_NAME,
      git_status: { median_ms: round(git.median), p90_ms: round(git.p90), n: git.n },
      problems,
    };
    if (mcp.skipped === undefined) {
      summary.edges = {
        cold_ms: round(mcp.cold),
        warm: { median_ms: round(mcp.warm.median), p90_ms: round(mcp.warm.p90), n: mcp.warm.n },
        after_scratch_ms: round(mcp.after_scratch.median),
        after_edit_ms: round(mcp.after_edit.median),
        rows: mcp.rows,
        answer_bytes: mcp.answer_bytes,
        cold_ratio: round(ratio(mcp.cold, git.median)),
        indexed_start_ms: mcp.indexed_start?.ms === undefined ? null : round(mcp.indexed_start.ms),
        indexed_start_ratio:
          mcp.indexed_start?.ms === undefined ? null : round(ratio(mcp.indexed_start.ms, git.median)),
        warm_ratio: round(ratio(mcp.warm.median, git.median)),
      };
      summary.target = {
        ratio: round(ratio(mcp.warm.median, git.median)),
        target: TARGET_WARM,
        met: ratio(mcp.warm.median, git.median) <= TARGET_WARM,
      };
    } else summary.edges = { skipped: mcp.skipped };
    if (kernel) summary.kernel_ms = Object.fromEntries(Object.entries(kernel).map(([k, v]) => [k, round(v)]));
    return summary;
  } finally {
    await closeAll();
    if (!keep) await fs.rm(root, { recursive: true, force: true }).catch(() => undefined);
    else log(`  kept ${root}`);
  }
}

async function main() {
  const { values } = parseArgs({
    options: {
      quick: { type: 'boolean' },
      docs: { type: 'string' },
      entries: { type: 'string' },
      'git-runs': { type: 'string' },
      'warm-runs': { type: 'string' },
      tmp: { type: 'string' },
      keep: { type: 'boolean' },
      'generate-only': { type: 'string' },
    },
    strict: true,
  });
  const num = (v) => (v === undefined ? undefined : Number(v));
  const quick = values.quick ?? ['1', 'true', 'yes'].includes(String(process.env.BENCH_QUICK).toLowerCase());
  if (values['generate-only'] !== undefined) {
    const made = await generateVault(path.resolve(values['generate-only']), {
      docs: num(values.docs) ?? (quick ? 2_000 : 20_000),
      entries: num(values.entries) ?? (quick ? 10_000 : 100_000),
    });
    console.log(JSON.stringify(made));
    return 0;
  }
  const summary = await runCoherenceEdgesBench({
    quick,
    docs: num(values.docs),
    entries: num(values.entries),
    gitRuns: num(values['git-runs']),
    warmRuns: num(values['warm-runs']),
    tmpBase: values.tmp ?? process.env.BENCH_TMPDIR ?? os.tmpdir(),
    keep: values.keep ?? false,
  });
  process.stdout.write(`BENCH_JSON ${JSON.stringify(summary)}\n`);
  return summary.problems.length > 0 ? 1 : 0;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().then(
    (code) => process.exit(code),
    (error) => {
      process.stderr.write(
        `coherence-edges: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
      );
      process.exit(1);
    },
  );
}
