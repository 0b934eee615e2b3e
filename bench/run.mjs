#!/usr/bin/env node
/**
 * vmark benchmarks (DESIGN §8): every figure is measured in the same run against
 * a named peer, the reference filesystem MCP server, both driven over stdio by the
 * real SDK Client. Benchmarks inform, they do not gate: the run exits 0 whether
 * or not the targets are met, and 1 only when it could not measure (a server
 * failed, or the file on disk does not hold what was written).
 *
 *   node bench/run.mjs [--quick] [--cold-runs N] [--small-iters N] [--large-iters N] [--huge-iters N]
 *                      [--warmup N] [--only cold,small,large,huge,cjk,workflow,coherence,editor,load,browser,act,frames,reader,quickopen,search] [--tmp DIR] [--keep]
 *                      [--vmark-node-arg=ARG]... [--peer-node-arg=ARG]... [--baseline CLI]
 *
 * `--baseline CLI` (e.g. another checkout's core/dist/bundle/main.js) runs that build as a third
 * server in the cold starts and the round trips, interleaved with this one and the peer, with its
 * own VMARK_HOME and file: a before/after of the two builds under one load.
 *
 * Environment: BENCH_QUICK=1, BENCH_COLD_RUNS, BENCH_SMALL_ITERS, BENCH_LARGE_ITERS,
 * BENCH_WARMUP, BENCH_ONLY, BENCH_TMPDIR.
 */
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { documentAt, markdownBody, markerLine } from './markdown-fixture.mjs';
import { callTool, closeAll, connectStdio } from './mcp-stdio.mjs';
import { cpuSeconds } from './process-cpu.mjs';
import { runBrowserActBench } from './browser-act.mjs';
import { runBrowserFramesBench } from './browser-frames.mjs';
import { runBrowserSnapshotBench } from './browser-snapshot.mjs';
import { runCjkBench } from './cjk-format.mjs';
import { runCoherenceEdgesBench } from './coherence-edges.mjs';
import { runEditorLatencyBench } from './editor-latency.mjs';
import { runMcpLoadBench } from './mcp-load.mjs';
import { runQuickOpenBench } from './quick-open.mjs';
import { runReaderBench } from './reader.mjs';
import { runSearchBench } from './search.mjs';
import { runWorkflowPatchBench } from './workflow-patch.mjs';
import { fmtBytes, fmtMs, fmtRatio, ratio, round, summarize, table } from './stats.mjs';

const REPO = fileURLToPath(new URL('..', import.meta.url));
const VMARK_CLI = path.join(REPO, 'core', 'dist', 'bundle', 'main.js');
const PEER_CLI = path.join(
  REPO,
  'node_modules',
  '@modelcontextprotocol',
  'server-filesystem',
  'dist',
  'index.js',
);
const PEER_NAME = '@modelcontextprotocol/server-filesystem';

/** Targets from the issue: vmark's median over the peer's median. */
const TARGETS = { cold_start: 1.5, round_trip: 1.0, vault_search_warm: 1.0 };

const SIZES = {
  small: { label: '10 KB', bytes: 10 * 1024, seed: 10 },
  large: { label: '1 MB', bytes: 1024 * 1024, seed: 1024 },
  huge: { label: '10 MB', bytes: 10 * 1024 * 1024, seed: 10240 },
};
const SECTIONS = [
  'cold',
  'small',
  'large',
  'huge',
  'cjk',
  'workflow',
  'coherence',
  'editor',
  'load',
  'browser',
  'act',
  'frames',
  'reader',
  'quickopen',
  'search',
];
const TARGET_NAMES = { small: 'round_trip_10kb', large: 'round_trip_1mb' };

// ---------------------------------------------------------------------------------------------
// Options

function readOptions() {
  const { values } = parseArgs({
    options: {
      quick: { type: 'boolean' },
      'cold-runs': { type: 'string' },
      'small-iters': { type: 'string' },
      'large-iters': { type: 'string' },
      'huge-iters': { type: 'string' },
      warmup: { type: 'string' },
      only: { type: 'string' },
      tmp: { type: 'string' },
      keep: { type: 'boolean' },
      'vmark-node-arg': { type: 'string', multiple: true },
      'peer-node-arg': { type: 'string', multiple: true },
      baseline: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help) {
    process.stdout.write(fileHelp());
    process.exit(0);
  }
  const env = process.env;
  const quick = values.quick ?? ['1', 'true', 'yes'].includes(String(env.BENCH_QUICK).toLowerCase());
  const count = (flag, envName, full, short) => {
    const raw = values[flag] ?? env[envName];
    if (raw === undefined || raw === '') return quick ? short : full;
    if (!/^\d+$/.test(raw) || Number(raw) < 1)
      throw new Error(`--${flag} must be a positive integer, got ${raw}`);
    return Number(raw);
  };
  const warmupRaw = values.warmup ?? env.BENCH_WARMUP;
  if (warmupRaw !== undefined && !/^\d+$/.test(warmupRaw)) throw new Error(`--warmup must be a whole number`);
  const only = new Set((values.only ?? env.BENCH_ONLY ?? SECTIONS.join(',')).split(',').map((s) => s.trim()));
  for (const part of only) {
    if (!SECTIONS.includes(part)) throw new Error(`--only takes ${SECTIONS.join(', ')}; got ${part}`);
  }
  return {
    quick,
    coldRuns: count('cold-runs', 'BENCH_COLD_RUNS', 15, 5),
    iterations: {
      small: count('small-iters', 'BENCH_SMALL_ITERS', 200, 40),
      large: count('large-iters', 'BENCH_LARGE_ITERS', 30, 8),
      huge: count('huge-iters', 'BENCH_HUGE_ITERS', 8, 3),
    },
    warmup: {
      small: warmupRaw !== undefined ? Number(warmupRaw) : quick ? 5 : 20,
      large: warmupRaw !== undefined ? Math.min(Number(warmupRaw), 5) : quick ? 2 : 5,
      huge: warmupRaw !== undefined ? Math.min(Number(warmupRaw), 2) : 1,
    },
    only,
    tmpBase: values.tmp ?? env.BENCH_TMPDIR ?? os.tmpdir(),
    keep: values.keep ?? false,
    vmarkNodeArgs: values['vmark-node-arg'] ?? [],
    peerNodeArgs: values['peer-node-arg'] ?? [],
    baseline: values.baseline === undefined ? null : path.resolve(values.baseline),
  };
}

function fileHelp() {
  return `Usage: node bench/run.mjs [options]
  --quick                 short run (also BENCH_QUICK=1)
  --cold-runs N           cold starts per server (default 15; quick 5)
  --small-iters N         10 KB round trips per server (default 200; quick 40)
  --huge-iters N          10 MB round trips per server (default 8; quick 3)
  --large-iters N         1 MB round trips per server (default 30; quick 8)
  --warmup N              untimed round trips first (default 20 / 5; quick 5 / 2)
  --only LIST             any of cold,small,large,huge,cjk,workflow,coherence,editor,load,browser,act,reader,quickopen,search (default all)
  --tmp DIR               where the temp workspace goes (default the OS temp folder)
  --keep                  keep the temp folder (for inspection)
  --vmark-node-arg=ARG    extra node flag for the vmark server, e.g. --vmark-node-arg=--cpu-prof (repeatable)
  --peer-node-arg=ARG     the same for the peer server
  --baseline CLI          another build's core/dist/bundle/main.js, run as a third server in the
                          cold starts and round trips (interleaved, own VMARK_HOME): before/after
`;
}

// ---------------------------------------------------------------------------------------------
// Servers

function vmarkServer(context, extraArgs = [], build = { name: 'vmark', cli: VMARK_CLI, home: context.home }) {
  return {
    name: build.name,
    command: process.execPath,
    args: [
      ...context.options.vmarkNodeArgs,
      build.cli,
      'mcp',
      '--workspace',
      context.workspace,
      ...extraArgs,
    ],
    env: { VMARK_HOME: build.home },
    cwd: context.root,
  };
}

/** The `--baseline` build: another checkout's CLI, with a VMARK_HOME of its own (its history apart). */
function baselineBuild(context) {
  const cli = context.options.baseline;
  return cli === null ? null : { name: 'baseline', cli, home: path.join(context.root, 'home-baseline') };
}

function peerServer(context) {
  return {
    name: 'peer',
    command: process.execPath,
    args: [...context.options.peerNodeArgs, PEER_CLI, context.workspace],
    env: {},
    cwd: context.root,
  };
}

// ---------------------------------------------------------------------------------------------
// 1. Cold start to a tools/list answer

async function coldStartOnce(spec, expectedTools) {
  const started = performance.now();
  const server = await connectStdio(spec);
  const connected = performance.now();
  try {
    const { tools } = await server.client.listTools();
    const listed = performance.now();
    // The server's own CPU up to its answer: a figure the machine's load moves far less than the time.
    const cpu = cpuSeconds(server.pid) * 1000;
    const names = tools.map((tool) => tool.name);
    const missing = expectedTools.filter((name) => !names.includes(name));
    if (missing.length > 0) throw new Error(`${spec.name}: tools/list lacks ${missing.join(', ')}`);
    return { total: listed - started, connect: connected - started, list: listed - connected, cpu };
  } finally {
    await server.close();
  }
}

const COLD_KEYS = ['total', 'connect', 'list', 'cpu'];

async function benchColdStart(context) {
  const runs = context.options.coldRuns;
  const vmarkTools = ['document', 'session'];
  const starts = {
    vmark: () => coldStartOnce(vmarkServer(context, ['--open', context.files.small.vmark]), vmarkTools),
    peer: () => coldStartOnce(peerServer(context), ['read_text_file', 'write_file']),
  };
  const build = baselineBuild(context);
  if (build) {
    const spec = vmarkServer(context, ['--open', context.files.small.baseline], build);
    starts.baseline = () => coldStartOnce(spec, vmarkTools);
  }
  const names = Object.keys(starts);
  log(`\n[cold start] ${runs} × (${names.join(', ')}) interleaved, + 1 untimed start each`);
  // Untimed: creates VMARK_HOME's contents and warms the OS file cache for each.
  for (const name of names) await starts[name]();
  const samples = Object.fromEntries(names.map((name) => [name, []]));
  for (let i = 0; i < runs; i++) {
    // Each round in another order, so that no server always follows the same one.
    for (let k = 0; k < names.length; k++) {
      const name = names[(i + k) % names.length];
      samples[name].push(await starts[name]());
    }
    progress(i + 1, runs);
  }
  const stats = (who) =>
    Object.fromEntries(COLD_KEYS.map((key) => [key, summarize(samples[who].map((s) => s[key]))]));
  return {
    runs,
    ...Object.fromEntries(names.map((name) => [name, stats(name)])),
    // Per round, this build over the baseline: both met the same moment's load.
    ...(build && {
      paired: Object.fromEntries(
        COLD_KEYS.map((key) => [
          key,
          summarize(samples.vmark.map((s, k) => s[key] / samples.baseline[k][key])),
        ]),
      ),
    }),
  };
}

// ---------------------------------------------------------------------------------------------
// 2. Read + write round trips of one file

/** CPU seconds a server process has used; null where /proc cannot tell. */
function cpuOf(pid) {
  try {
    return pid === null || pid === undefined ? null : cpuSeconds(pid);
  } catch {
    return null;
  }
}

/** Every ordering of `items`. */
function permutations(items) {
  if (items.length <= 1) return [items];
  return items.flatMap((item, i) =>
    permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]),
  );
}

/**
 * A vmark server's read → write step on `file` (open in it), checking after the clock stops that
 * the read returned the last write and the write saved.
 */
async function vmarkRunnerFor(server, file, body) {
  const state = await callTool(server, 'session', { action: 'get_state' });
  const tab = state.windows.flatMap((w) => w.tabs).find((t) => t.filePath === file);
  if (!tab) throw new Error(`${server.name}: no tab for ${file} in session.get_state`);
  const who = server.name;
  return {
    tabId: tab.id,
    lastRevision: tab.revision,
    expected: documentAt(body, 0),
    truncatedReads: 0,
    async step(iteration) {
      const next = documentAt(body, iteration);
      const t0 = performance.now();
      const read = await callTool(server, 'document', { action: 'read', tabId: this.tabId });
      const t1 = performance.now();
      // A read over the 75,000-byte output bound comes back as a truncation envelope
      // without a revision; the bench is the only writer, so the last write's revision holds.
      const revision = read.truncated === true ? this.lastRevision : read.revision;
      const written = await callTool(server, 'document', {
        action: 'write',
        tabId: this.tabId,
        content: next,
        expected_revision: revision,
      });
      const t2 = performance.now();
      // Checked after the clock stops.
      if (read.truncated === true) {
        this.truncatedReads++;
        const bytes = Buffer.byteLength(JSON.stringify(this.expectedRead(), null, 2));
        if (read.bytes_total !== bytes)
          fail(`${who} read reported ${read.bytes_total} bytes, expected ${bytes}`);
        if (!this.expectedPrefix().startsWith(read.preview.slice(0, 200)))
          fail(`${who} read preview mismatch`);
      } else {
        if (read.content !== this.expected)
          fail(`${who} read returned other content (iteration ${iteration})`);
        if (read.revision !== this.lastRevision)
          fail(`${who} read revision ${read.revision} ≠ ${this.lastRevision}`);
      }
      if (written.saved !== true) fail(`${who} write did not save: ${JSON.stringify(written)}`);
      if (typeof written.revision !== 'string' || written.revision === revision)
        fail(`${who} write returned no new revision: ${JSON.stringify(written)}`);
      this.lastRevision = written.revision;
      this.expected = next;
      return { read: t1 - t0, write: t2 - t1, total: t2 - t0 };
    },
    expectedRead() {
      return {
        content: this.expected,
        revision: this.lastRevision,
        filePath: file,
        kind: 'markdown',
        dirty: false,
      };
    },
    expectedPrefix() {
      return JSON.stringify(this.expectedRead(), null, 2);
    },
  };
}

async function benchRoundTrip(context, sizeKey) {
  const size = SIZES[sizeKey];
  const iterations = context.options.iterations[sizeKey];
  const warmup = context.options.warmup[sizeKey];
  const body = context.bodies[sizeKey];
  const files = context.files[sizeKey];
  log(
    `\n[round trip ${size.label}] ${warmup} warm-up + ${iterations} timed read→write per server, interleaved`,
  );

  const vmark = await connectStdio(vmarkServer(context, ['--open', files.vmark]));
  const peer = await connectStdio(peerServer(context));
  const build = baselineBuild(context);
  const baseline =
    build && files.baseline
      ? await connectStdio(vmarkServer(context, ['--open', files.baseline], build))
      : null;
  try {
    // As a real client does: the SDK then checks each result against the tool's output schema.
    await vmark.client.listTools();
    await peer.client.listTools();
    await baseline?.client.listTools();

    const vmarkRunner = await vmarkRunnerFor(vmark, files.vmark, body);
    const baselineRunner = baseline && (await vmarkRunnerFor(baseline, files.baseline, body));

    const peerRunner = {
      expected: documentAt(body, 0),
      async step(iteration) {
        const next = documentAt(body, iteration);
        const t0 = performance.now();
        const read = await callTool(peer, 'read_text_file', { path: files.peer });
        const t1 = performance.now();
        await callTool(peer, 'write_file', { path: files.peer, content: next });
        const t2 = performance.now();
        if (read.content !== this.expected) fail(`peer read returned other content (iteration ${iteration})`);
        this.expected = next;
        return { read: t1 - t0, write: t2 - t1, total: t2 - t0 };
      },
    };

    const runners = { vmark: vmarkRunner, peer: peerRunner };
    if (baselineRunner) runners.baseline = baselineRunner;
    const fileOf = { vmark: files.vmark, peer: files.peer, baseline: files.baseline };
    const checkDisk = async () => {
      for (const [who, runner] of Object.entries(runners)) {
        if ((await fs.readFile(fileOf[who], 'utf8')) !== runner.expected)
          fail(`${who}: ${fileOf[who]} does not hold the last written content`);
      }
    };

    const samples = Object.fromEntries(Object.keys(runners).map((who) => [who, []]));
    const total = warmup + iterations;
    // Every order in turn, so that each server follows each other as often (a write leaves work
    // behind it, a checkpoint's index append, the disk's journal, that the next call meets).
    const orders = permutations(Object.keys(runners));
    const servers = { vmark, peer, baseline };
    // CPU each server spent over the timed rounds: a figure the machine's load hardly moves.
    const cpuAt = () => Object.fromEntries(Object.keys(runners).map((who) => [who, cpuOf(servers[who].pid)]));
    let cpuBefore = warmup === 0 ? cpuAt() : null;
    for (let i = 1; i <= total; i++) {
      const order = orders[i % orders.length];
      for (const who of order) {
        const timing = await runners[who].step(i);
        if (i > warmup) samples[who].push(timing);
      }
      // Every write must have reached the disk; checked outside the timed calls.
      await checkDisk();
      if (i > warmup) progress(i - warmup, iterations);
      if (i === warmup) cpuBefore = cpuAt();
    }
    const cpuAfter = cpuAt();
    await checkDisk();
    const cpuMsPerRound = (who) =>
      cpuBefore[who] === null || cpuAfter[who] === null
        ? null
        : ((cpuAfter[who] - cpuBefore[who]) * 1000) / iterations;

    const stat = (who, key) => summarize(samples[who].map((s) => s[key]));
    return {
      label: size.label,
      bytes: Buffer.byteLength(documentAt(body, 0)),
      iterations,
      warmup,
      vmark_read_truncated: vmarkRunner.truncatedReads > 0,
      vmark: {
        read: stat('vmark', 'read'),
        write: stat('vmark', 'write'),
        total: stat('vmark', 'total'),
        cpuMs: cpuMsPerRound('vmark'),
      },
      peer: {
        read: stat('peer', 'read'),
        write: stat('peer', 'write'),
        total: stat('peer', 'total'),
        cpuMs: cpuMsPerRound('peer'),
      },
      ...(baselineRunner && {
        baseline: {
          read: stat('baseline', 'read'),
          write: stat('baseline', 'write'),
          total: stat('baseline', 'total'),
          cpuMs: cpuMsPerRound('baseline'),
        },
        // Per round, this build over the baseline: both met the same moment's load.
        paired: {
          read: summarize(samples.vmark.map((s, k) => s.read / samples.baseline[k].read)),
          write: summarize(samples.vmark.map((s, k) => s.write / samples.baseline[k].write)),
          total: summarize(samples.vmark.map((s, k) => s.total / samples.baseline[k].total)),
        },
      }),
    };
  } finally {
    await vmark.close();
    await peer.close();
    await baseline?.close();
  }
}

// ---------------------------------------------------------------------------------------------
// 3. document.write of a 10 MB document

/**
 * vmark alone, timed; the peer is asked once and its answer recorded. Its stdio transport keeps
 * the MCP SDK's default 10 MiB message limit, so a 10 MB write closes its connection; vmark
 * raises the limit (core/mcp/message-limits.ts) and frames lines without quadratic copying.
 */
async function benchHugeWrite(context) {
  const iterations = context.options.iterations.huge;
  const warmup = context.options.warmup.huge;
  const body = context.bodies.huge;
  const files = context.files.huge;
  log(`\n[write 10 MB] ${warmup} warm-up + ${iterations} timed document.write (with save) by vmark`);

  const vmark = await connectStdio(vmarkServer(context, ['--open', files.vmark]));
  const times = [];
  try {
    let revision = (await callTool(vmark, 'session', { action: 'get_state' })).windows[0].tabs[0].revision;
    for (let i = 1; i <= warmup + iterations; i++) {
      const next = documentAt(body, i);
      const t0 = performance.now();
      const written = await callTool(vmark, 'document', {
        action: 'write',
        content: next,
        expected_revision: revision,
      });
      const elapsed = performance.now() - t0;
      if (written.saved !== true) fail(`vmark 10 MB write did not save: ${JSON.stringify(written)}`);
      if ((await fs.readFile(files.vmark, 'utf8')) !== next)
        fail('vmark: the 10 MB file on disk is not what was written');
      revision = written.revision;
      if (i > warmup) times.push(elapsed);
    }
  } finally {
    await vmark.close();
  }

  let peerOutcome;
  const peer = await connectStdio(peerServer(context));
  try {
    const t0 = performance.now();
    await callTool(peer, 'write_file', { path: files.peer, content: documentAt(body, 1) });
    peerOutcome = { ok: true, ms: round(performance.now() - t0) };
  } catch (error) {
    peerOutcome = { ok: false, error: error instanceof Error ? error.message : String(error) };
  } finally {
    await peer.close().catch(() => undefined);
  }
  const bytes = Buffer.byteLength(documentAt(body, 0));
  const vmarkStats = summarize(times);
  return {
    bytes,
    iterations,
    vmark: statJson(vmarkStats),
    mb_per_s: round(bytes / 1e6 / (vmarkStats.median / 1000)),
    peer: peerOutcome,
  };
}

function hugeWriteReport(huge) {
  const peer = huge.peer.ok ? `${huge.peer.ms} ms` : `failed: ${huge.peer.error}`;
  return [
    `write 10 MB (${(huge.bytes / 1024 / 1024).toFixed(2)} MiB, n=${huge.iterations})`,
    `  vmark document.write + save: median ${huge.vmark.median_ms} ms, p90 ${huge.vmark.p90_ms} ms (${huge.mb_per_s} MB/s)`,
    `  peer write_file, once: ${peer}`,
  ].join('\n');
}

// ---------------------------------------------------------------------------------------------
// Reporting

function coldStartReport(cold) {
  const row = (label, key) => [
    label,
    fmtMs(cold.vmark[key].median),
    fmtMs(cold.vmark[key].p90),
    fmtMs(cold.peer[key].median),
    fmtMs(cold.peer[key].p90),
    fmtRatio(ratio(cold.vmark[key].median, cold.peer[key].median)),
  ];
  const rows = [
    row('spawn → tools/list', 'total'),
    row('  spawn + initialize', 'connect'),
    row('  tools/list', 'list'),
    row('server CPU to tools/list', 'cpu'),
  ];
  const main = table([
    ['cold start', 'vmark med', 'vmark p90', 'peer med', 'peer p90', 'ratio (med)'],
    ...rows,
  ]);
  if (!cold.paired) return main;
  return `${main}\n\n${table([
    BASELINE_HEADER,
    baselineRow(cold, 'spawn → tools/list', 'total'),
    baselineRow(cold, 'server CPU to tools/list', 'cpu'),
  ])}`;
}

function roundTripReport(rt) {
  const row = (label, key) => [
    label,
    fmtMs(rt.vmark[key].median),
    fmtMs(rt.vmark[key].p90),
    fmtMs(rt.peer[key].median),
    fmtMs(rt.peer[key].p90),
    fmtRatio(ratio(rt.vmark[key].median, rt.peer[key].median)),
    fmtRatio(ratio(rt.vmark[key].p90, rt.peer[key].p90)),
  ];
  return table([
    [
      `${rt.label} (${fmtBytes(rt.bytes)}, n=${rt.iterations})`,
      'vmark med',
      'vmark p90',
      'peer med',
      'peer p90',
      'ratio med',
      'ratio p90',
    ],
    row('read', 'read'),
    row('write (+ save)', 'write'),
    row('read + write', 'total'),
    [
      'server CPU per round trip',
      fmtCpu(rt.vmark.cpuMs),
      '',
      fmtCpu(rt.peer.cpuMs),
      '',
      fmtRatio(ratio(rt.vmark.cpuMs ?? Number.NaN, rt.peer.cpuMs ?? Number.NaN)),
      '',
    ],
  ]);
}

function fmtCpu(ms) {
  return ms === null || ms === undefined ? 'n/a' : fmtMs(ms);
}

/** The `--baseline` build next to this one: its medians, and this build over it per round. */
const BASELINE_HEADER = [
  'this build vs --baseline',
  'vmark med',
  'baseline med',
  'baseline/peer',
  'paired med',
  'paired p90',
];

/** One measure of the `--baseline` build next to this one: medians, the baseline's ratio to the peer, this over it per round. */
function baselineRow(result, label, key) {
  return [
    label,
    fmtMs(result.vmark[key].median),
    fmtMs(result.baseline[key].median),
    fmtRatio(ratio(result.baseline[key].median, result.peer[key].median)),
    fmtRatio(result.paired[key].median),
    fmtRatio(result.paired[key].p90),
  ];
}

function baselineReport(rt) {
  return table([
    BASELINE_HEADER,
    baselineRow(rt, 'read', 'read'),
    baselineRow(rt, 'write (+ save)', 'write'),
    baselineRow(rt, 'read + write', 'total'),
    [
      'server CPU per round trip',
      fmtCpu(rt.vmark.cpuMs),
      fmtCpu(rt.baseline.cpuMs),
      fmtRatio(ratio(rt.baseline.cpuMs ?? Number.NaN, rt.peer.cpuMs ?? Number.NaN)),
      fmtRatio(ratio(rt.vmark.cpuMs ?? Number.NaN, rt.baseline.cpuMs ?? Number.NaN)),
      '',
    ],
  ]);
}

function statJson(s) {
  return {
    median_ms: round(s.median),
    p90_ms: round(s.p90),
    min_ms: round(s.min),
    max_ms: round(s.max),
    n: s.n,
  };
}

function verdict(value, target) {
  if (!Number.isFinite(value)) return { ratio: null, target, met: null };
  return { ratio: round(value), target, met: value <= target };
}

// ---------------------------------------------------------------------------------------------
// Main

let verbose = true;
/** Set on SIGINT/SIGTERM: the failures that follow from stopping the servers are not reported. */
let interrupted = false;
function log(line) {
  if (verbose) process.stdout.write(`${line}\n`);
}
function progress(done, total) {
  if (!process.stdout.isTTY) return;
  process.stdout.write(`\r  ${done}/${total}${done === total ? '\n' : ''}`);
}
function fail(message) {
  throw new Error(`VERIFY: ${message}`);
}

async function main() {
  const options = readOptions();
  if (!existsSync(VMARK_CLI)) throw new Error(`${VMARK_CLI} is missing: run \`npm run build\` first`);
  if (!existsSync(PEER_CLI)) throw new Error(`${PEER_CLI} is missing: run \`npm install\` first`);

  await fs.mkdir(options.tmpBase, { recursive: true });
  const root = await fs.realpath(await fs.mkdtemp(path.join(options.tmpBase, 'vmark-bench-')));
  const context = {
    options,
    root,
    home: path.join(root, 'home'),
    workspace: path.join(root, 'workspace'),
    bodies: {},
    files: {},
  };
  const onSignal = (signal) => {
    if (interrupted) return;
    interrupted = true;
    process.stderr.write(`\nbench: ${signal}, stopping servers and removing ${root}\n`);
    void cleanup().finally(() => process.exit(130));
  };
  const cleanup = async () => {
    await closeAll();
    if (!options.keep) await fs.rm(root, { recursive: true, force: true }).catch(() => undefined);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  try {
    await fs.mkdir(context.home, { recursive: true });
    await fs.mkdir(context.workspace, { recursive: true });
    for (const [key, size] of Object.entries(SIZES)) {
      // The cold start opens the small file too.
      if (!options.only.has(key) && !(key === 'small' && options.only.has('cold'))) continue;
      context.bodies[key] = markdownBody(size.bytes - Buffer.byteLength(markerLine(0)) - 1, size.seed);
      const initial = documentAt(context.bodies[key], 0);
      context.files[key] = {
        vmark: path.join(context.workspace, `vmark-${key}.md`),
        peer: path.join(context.workspace, `peer-${key}.md`),
        ...(options.baseline && { baseline: path.join(context.workspace, `baseline-${key}.md`) }),
      };
      // Separate files: vmark refuses to save over a file someone else changed since it read it.
      for (const file of Object.values(context.files[key])) await fs.writeFile(file, initial);
    }

    log(
      `vmark benchmark — node ${process.version}, ${os.cpus().length} CPU(s), ${os.platform()} ${os.release()}`,
    );
    log(
      `vmark: ${path.relative(REPO, VMARK_CLI)}; peer: ${PEER_NAME}; temp: ${root}${options.quick ? ' (quick)' : ''}`,
    );

    const results = {};
    if (options.only.has('cold')) results.cold = await benchColdStart(context);
    if (options.only.has('small')) results.small = await benchRoundTrip(context, 'small');
    if (options.only.has('large')) results.large = await benchRoundTrip(context, 'large');
    if (options.only.has('huge')) results.huge = await benchHugeWrite(context);
    // In-process, pure: the CJK transforms against AutoCorrect and pangu (bench/cjk-format.mjs prints its own table).
    if (options.only.has('cjk')) results.cjk = await runCjkBench({ quick: options.quick });
    // Quick open on a generated 20,000-note vault, end to end in Chromium (bench/quick-open.mjs prints its own table).
    if (options.only.has('quickopen'))
      results.quickopen = await runQuickOpenBench({ quick: options.quick, keep: options.keep, log });
    // In-process: workflow.apply_patch's engine against yaml's parseDocument().toString() round trip.
    if (options.only.has('search'))
      results.search = await runSearchBench({ quick: options.quick, keep: options.keep, log });
    if (options.only.has('workflow'))
      results.workflow = await runWorkflowPatchBench({ quick: options.quick });
    // coherence.edges on a generated git vault against `git status` on it (bench/coherence-edges.mjs).
    if (options.only.has('coherence'))
      results.coherence = await runCoherenceEdgesBench({
        quick: options.quick,
        tmpBase: root,
        keep: options.keep,
        log,
      });
    // The editor in Chromium against a bare CodeMirror page (bench/editor-latency.mjs prints its own table).
    if (options.only.has('editor'))
      results.editor = await runEditorLatencyBench({
        quick: options.quick,
        tmpBase: root,
        keep: options.keep,
        log,
        vmarkNodeArgs: options.vmarkNodeArgs,
      });

    // 8 SDK clients over HTTP against the built CLI and the SDK's own server: RSS curve and latency.
    if (options.only.has('load'))
      results.load = await runMcpLoadBench({ quick: options.quick, tmpBase: root, keep: options.keep, log });

    // browser_read read against Playwright's AI snapshot on the readability corpus, same Chromium (bench/browser-snapshot.mjs).
    if (options.only.has('browser'))
      results.browser = await runBrowserSnapshotBench({ quick: options.quick, log });
    // "Find the sign-up link and click it" against Playwright MCP over stdio, same Chromium (bench/browser-act.mjs).
    if (options.only.has('act')) results.act = await runBrowserActBench({ log });
    if (options.only.has('frames'))
      results.frames = await runBrowserFramesBench({ quick: options.quick, log });
    // Reader mode on the readability and defuddle corpora against both peers (bench/reader.mjs prints its own tables).
    if (options.only.has('reader')) results.reader = await runReaderBench({ quick: options.quick, log });

    // ---- table
    log('\n=== Results (vmark vs ' + PEER_NAME + ', ratio = vmark / peer; lower is better) ===\n');
    if (results.cold) log(coldStartReport(results.cold) + '\n');
    for (const key of ['small', 'large']) {
      const rt = results[key];
      if (!rt) continue;
      log(roundTripReport(rt));
      if (rt.paired) log('\n' + baselineReport(rt));
      if (rt.vmark_read_truncated)
        log(
          `  note: vmark's document.read of the ${rt.label} file returns the 75,000-byte truncation envelope, ` +
            'not the text; the peer returns the whole file.',
        );
      log('');
    }

    const summary = {
      node: process.version,
      cpus: os.cpus().length,
      quick: options.quick,
      peer: PEER_NAME,
      verified: true,
      targets: {},
    };
    if (results.cold) {
      const c = results.cold;
      summary.cold_start = {
        runs: c.runs,
        vmark: statJson(c.vmark.total),
        peer: statJson(c.peer.total),
        ratio_median: round(ratio(c.vmark.total.median, c.peer.total.median)),
        ratio_p90: round(ratio(c.vmark.total.p90, c.peer.total.p90)),
        vmark_initialize_median_ms: round(c.vmark.connect.median),
        vmark_tools_list_median_ms: round(c.vmark.list.median),
        peer_initialize_median_ms: round(c.peer.connect.median),
        peer_tools_list_median_ms: round(c.peer.list.median),
        vmark_cpu_median_ms: round(c.vmark.cpu.median),
        peer_cpu_median_ms: round(c.peer.cpu.median),
        ...(c.paired && {
          baseline: statJson(c.baseline.total),
          baseline_cpu_median_ms: round(c.baseline.cpu.median),
          paired_total_median: round(c.paired.total.median),
          paired_cpu_median: round(c.paired.cpu.median),
        }),
      };
      summary.targets.cold_start = verdict(
        ratio(c.vmark.total.median, c.peer.total.median),
        TARGETS.cold_start,
      );
    }
    if (results.huge) {
      log(hugeWriteReport(results.huge) + '\n');
      summary.write_10mb = results.huge;
    }
    if (results.cjk) summary.cjk_transforms = results.cjk;
    if (results.workflow) summary.workflow_patch = results.workflow;
    if (results.quickopen) {
      summary.quick_open = results.quickopen;
      // The goal is a time, not a ratio: < 16 ms median per keystroke to the list shown.
      summary.targets.quick_open_keystroke_ms = {
        median_ms: results.quickopen.keystroke_shown_median_ms,
        target_ms: 16,
        met: results.quickopen.goal_met,
      };
    }
    if (results.search) {
      summary.vault_search = results.search;
      summary.targets.vault_search_warm = verdict(results.search.warm_ratio, TARGETS.vault_search_warm);
    }
    if (results.editor) summary.editor = results.editor;
    if (results.load) summary.mcp_load = results.load;
    if (results.browser) {
      const { per_page: _perPage, ...browser } = results.browser;
      summary.browser_read = browser;
      for (const [name, target] of Object.entries(browser.targets))
        summary.targets[`browser_read_${name}`] = target;
    }
    if (results.act) {
      summary.browser_act = results.act;
      summary.targets.browser_act_tokens = results.act.targets.tokens;
    }
    if (results.reader) summary.reader = results.reader;
    if (results.coherence) {
      summary.coherence_edges = results.coherence;
      if (results.coherence.target) summary.targets.coherence_edges_warm = results.coherence.target;
      if (results.coherence.problems.length > 0)
        fail(`coherence.edges: ${results.coherence.problems.join('; ')}`);
    }
    for (const key of ['small', 'large']) {
      const rt = results[key];
      if (!rt) continue;
      const name = TARGET_NAMES[key];
      const part = (k) => ({
        vmark: statJson(rt.vmark[k]),
        peer: statJson(rt.peer[k]),
        ratio_median: round(ratio(rt.vmark[k].median, rt.peer[k].median)),
        ratio_p90: round(ratio(rt.vmark[k].p90, rt.peer[k].p90)),
      });
      summary[name] = {
        bytes: rt.bytes,
        iterations: rt.iterations,
        warmup: rt.warmup,
        vmark_read_truncated: rt.vmark_read_truncated,
        read: part('read'),
        write: part('write'),
        read_write: part('total'),
        server_cpu_ms: {
          vmark: rt.vmark.cpuMs === null ? null : round(rt.vmark.cpuMs),
          peer: rt.peer.cpuMs === null ? null : round(rt.peer.cpuMs),
        },
      };
      if (rt.paired) {
        summary[name].baseline = {
          cli: options.baseline,
          read_write: statJson(rt.baseline.total),
          server_cpu_ms: rt.baseline.cpuMs === null ? null : round(rt.baseline.cpuMs),
          ratio_median: round(ratio(rt.baseline.total.median, rt.peer.total.median)),
          paired_over_baseline: {
            read: round(rt.paired.read.median),
            write: round(rt.paired.write.median),
            read_write: round(rt.paired.total.median),
          },
        };
      }
      summary.targets[name] = verdict(ratio(rt.vmark.total.median, rt.peer.total.median), TARGETS.round_trip);
    }

    log('Targets (median ratio vmark/peer):');
    for (const [name, t] of Object.entries(summary.targets)) {
      const mark = t.met === null ? 'n/a' : t.met ? 'MET' : 'NOT MET';
      log(
        `  ${name.padEnd(16)} ${fmtRatio(t.ratio ?? Number.NaN).padStart(7)}  target ≤ ${t.target.toFixed(1)}×  ${mark}`,
      );
    }
    log('');
    process.stdout.write(`BENCH_JSON ${JSON.stringify(summary)}\n`);
  } finally {
    await cleanup();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    verbose = false;
    if (interrupted) return; // the signal handler cleans up and exits
    process.stderr.write(
      `bench: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(1);
  },
);
