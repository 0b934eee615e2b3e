#!/usr/bin/env node
/**
 * Memory and latency under load (issue 9, item 12): N real SDK clients, each over its own
 * Streamable HTTP session, make M mixed calls against the built `vmark mcp --http`:
 * `workspace.open`, `document.read`, `document.write` (with `expected_revision`, saved to
 * disk) and `session.get_state`, on small and medium documents. The server's RSS is read
 * from /proc/<pid>/status every `--sample-every` calls; after the run the clients close, the
 * server idles, and a full GC is asked of it through its inspector (`--inspect`), and the RSS
 * and V8 heap are read again. A server that keeps something per call shows a curve without a
 * plateau and a heap that stays up after the GC.
 *
 * Peer: the MCP SDK's own `McpServer` over `StreamableHTTPServerTransport`, one per session
 * (bench/mcp-load-peer.mjs: the same four tools doing the same file reads and writes, nothing
 * else), driven by the same clients in the same run: what the SDK and Node cost by themselves.
 *
 *   node bench/mcp-load.mjs [--clients 8] [--calls 4000] [--sample-every 250] [--idle-ms 5000]
 *                           [--derived] [--no-peer] [--heap-snapshot DIR] [--quick] [--keep] [--tmp DIR]
 *                           [--vmark-node-arg=ARG]...
 *
 * `--heap-snapshot DIR` writes V8 heap snapshots of the server (through the inspector, each after
 * a GC): `-before` the load, `-load` at its end with the sessions still open, and `-after` the
 * idle time, for comparison in Chrome DevTools (Memory → Comparison).
 * The last line is `BENCH_JSON {...}`. Exits 1 when a call fails or a file on disk does not
 * hold what a client last wrote.
 */
import { spawn } from 'node:child_process';
import { createWriteStream, existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import WebSocket from 'ws';
import { documentAt, markdownBody, markerLine } from './markdown-fixture.mjs';
import { fmtMs, quantile, ratio, round, table } from './stats.mjs';

const REPO = fileURLToPath(new URL('..', import.meta.url));
const VMARK_CLI = path.join(REPO, 'core', 'dist', 'bundle', 'main.js');
const PEER_SERVER = path.join(REPO, 'bench', 'mcp-load-peer.mjs');
const PEER_NAME = '@modelcontextprotocol/sdk McpServer (Streamable HTTP)';

/** Documents each client works on: two small, two medium (under the 75,000-byte output bound, so reads return the text). */
const DOCUMENTS = [
  { name: 'small-a', bytes: 2 * 1024 },
  { name: 'small-b', bytes: 4 * 1024 },
  { name: 'medium-a', bytes: 24 * 1024 },
  { name: 'medium-b', bytes: 48 * 1024 },
];

/** The full run, and `--quick`'s. */
function defaults(quick) {
  return {
    clients: quick ? 4 : 8,
    calls: quick ? 500 : 4000,
    sampleEvery: 250,
    idleMs: quick ? 2000 : 5000,
    peer: true,
    derived: false,
    vmarkNodeArgs: [],
    heapSnapshotDir: undefined,
    keep: false,
    tmpBase: process.env.BENCH_TMPDIR ?? os.tmpdir(),
  };
}

function readOptions() {
  const { values } = parseArgs({
    options: {
      clients: { type: 'string' },
      calls: { type: 'string' },
      'sample-every': { type: 'string' },
      'idle-ms': { type: 'string' },
      'no-peer': { type: 'boolean' },
      derived: { type: 'boolean' },
      'vmark-node-arg': { type: 'string', multiple: true },
      'heap-snapshot': { type: 'string' },
      quick: { type: 'boolean' },
      keep: { type: 'boolean' },
      tmp: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help) {
    process.stdout.write(
      'Usage: node bench/mcp-load.mjs [--clients N] [--calls N] [--sample-every N] [--idle-ms MS]\n' +
        '                              [--derived] [--no-peer] [--heap-snapshot DIR] [--quick] [--keep] [--tmp DIR]\n' +
        '                              [--vmark-node-arg=ARG]...\n',
    );
    process.exit(0);
  }
  const base = defaults(values.quick ?? false);
  const count = (name, fallback) => {
    const raw = values[name];
    if (raw === undefined) return fallback;
    if (!/^\d+$/.test(raw) || Number(raw) < 1)
      throw new Error(`--${name} must be a positive integer, got ${raw}`);
    return Number(raw);
  };
  return {
    ...base,
    clients: count('clients', base.clients),
    calls: count('calls', base.calls),
    sampleEvery: count('sample-every', base.sampleEvery),
    idleMs: count('idle-ms', base.idleMs),
    peer: !values['no-peer'],
    derived: values.derived ?? false,
    vmarkNodeArgs: values['vmark-node-arg'] ?? [],
    heapSnapshotDir: values['heap-snapshot'],
    keep: values.keep ?? false,
    tmpBase: values.tmp ?? base.tmpBase,
  };
}

// ---------------------------------------------------------------------------------------------
// The server under load, its RSS, and its inspector

/** Starts `command args` with `--inspect=127.0.0.1:0`; resolves once it printed its endpoint (a JSON first line). */
async function startServer(name, args, env) {
  const child = spawn(process.execPath, ['--inspect=127.0.0.1:0', ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  let inspectorUrl;
  const inspectorSeen = new Promise((resolve) => {
    child.stderr.on('data', (chunk) => {
      stderr = (stderr + chunk.toString()).slice(-8192);
      const match = /Debugger listening on (ws:\/\/\S+)/.exec(stderr);
      if (match && inspectorUrl === undefined) {
        inspectorUrl = match[1];
        resolve();
      }
    });
  });
  const firstLine = await new Promise((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`${name} exited with ${code}: ${stderr}`)));
  });
  await inspectorSeen;
  const endpoint = JSON.parse(firstLine);
  return {
    name,
    child,
    url: endpoint.url,
    token: endpoint.token,
    inspectorUrl,
    stderr: () => stderr,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** Resident set size of a process, in bytes, from /proc (Linux). */
async function rssOf(pid) {
  const status = await fs.readFile(`/proc/${pid}/status`, 'utf8');
  const kb = /^VmRSS:\s+(\d+) kB$/m.exec(status);
  if (!kb) throw new Error(`no VmRSS in /proc/${pid}/status`);
  return Number(kb[1]) * 1024;
}

/** A Chrome DevTools Protocol session with the server's inspector: for a full GC, its heap figures and snapshots. */
async function inspect(url) {
  const socket = new WebSocket(url);
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  let nextId = 1;
  const pending = new Map();
  const listeners = new Map();
  socket.on('message', (data) => {
    const message = JSON.parse(data.toString());
    if (message.id !== undefined) {
      const waiter = pending.get(message.id);
      pending.delete(message.id);
      if (message.error) waiter?.reject(new Error(message.error.message));
      else waiter?.resolve(message.result);
    } else listeners.get(message.method)?.(message.params);
  });
  const send = (method, params = {}) =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve, reject });
      socket.send(JSON.stringify({ id, method, params }));
    });
  return {
    async gc() {
      // Twice: weak references and finalizers freed by the first are collected by the second.
      await send('HeapProfiler.collectGarbage');
      await send('HeapProfiler.collectGarbage');
    },
    async heap() {
      const { usedSize, totalSize } = await send('Runtime.getHeapUsage');
      // Outside the V8 heap: Buffers and other native memory the process holds for JS objects.
      const { result } = await send('Runtime.evaluate', {
        expression: 'JSON.stringify(process.memoryUsage())',
        returnByValue: true,
      });
      const { external } = JSON.parse(result.value);
      return { used: usedSize, total: totalSize, external };
    },
    async snapshot(file) {
      const out = createWriteStream(file);
      listeners.set('HeapProfiler.addHeapSnapshotChunk', ({ chunk }) => out.write(chunk));
      await send('HeapProfiler.takeHeapSnapshot', { reportProgress: false });
      listeners.delete('HeapProfiler.addHeapSnapshotChunk');
      await new Promise((resolve) => out.end(resolve));
    },
    close: () => socket.close(),
  };
}

// ---------------------------------------------------------------------------------------------
// The clients

async function connect(server, index) {
  const client = new Client({ name: `vmark-load-${index}`, version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(server.url), {
    requestInit: { headers: { Authorization: `Bearer ${server.token}` } },
  });
  await client.connect(transport);
  return { client, transport };
}

async function callTool(client, name, args) {
  const result = await client.callTool({ name, arguments: args });
  const text = (result.content ?? []).map((part) => part.text ?? '').join('');
  if (result.isError) throw new Error(`${name}.${args.action} failed: ${text.slice(0, 500)}`);
  return result.structuredContent ?? JSON.parse(text);
}

/**
 * One client's calls, in a fixed rotation over its own documents: open (a tab that is already
 * open is found again), read, write the read text with a new marker line, and now and then the
 * whole session state. Every read must show the marker line of the last write to that document,
 * and so must the file on disk at the end. With `derived`, each write is preceded by a read of
 * the client's previous document as well, so the write is derived from another document and the
 * coherence plugin captures it into the workspace's ledger.
 */
async function runClient(connection, files, calls, derived, onCall) {
  const { client } = connection;
  const latencies = [];
  /** By file: the marker line of its last write. */
  const expected = new Map();
  const tabs = new Map();
  const timed = async (name, args) => {
    const started = performance.now();
    const result = await callTool(client, name, args);
    latencies.push(performance.now() - started);
    await onCall();
    return result;
  };
  const read = async (file) => {
    const result = await timed('document', { action: 'read', tabId: tabs.get(file.path) });
    if (expected.has(file.path) && !result.content.includes(expected.get(file.path)))
      throw new Error(`VERIFY: ${file.path} did not read back what was last written`);
    file.revision = result.revision;
  };
  for (let done = 0, round = 0; done < calls; round++) {
    const file = files[round % files.length];
    const previous = files[(round + files.length - 1) % files.length];
    const steps = [
      async () => {
        const opened = await timed('workspace', { action: 'open', filePath: file.path });
        tabs.set(file.path, opened.tabId);
      },
      () => read(file),
      async () => {
        if (derived && tabs.has(previous.path)) await read(previous);
      },
      async () => {
        const written = await timed('document', {
          action: 'write',
          tabId: tabs.get(file.path),
          content: documentAt(file.body, round + 1),
          expected_revision: file.revision,
        });
        if (written.saved !== true) throw new Error(`VERIFY: write did not save: ${JSON.stringify(written)}`);
        expected.set(file.path, markerLine(round + 1));
      },
      async () => {
        if (round % 2 === 0) await timed('session', { action: 'get_state' });
      },
    ];
    for (const step of steps) {
      if (done >= calls) break;
      const before = latencies.length;
      await step();
      done += latencies.length - before;
    }
  }
  for (const [file, marker] of expected) {
    if (!(await fs.readFile(file, 'utf8')).includes(marker))
      throw new Error(`VERIFY: ${file} on disk is not what was last written`);
  }
  return latencies;
}

async function writeDocuments(workspace, clients) {
  const perClient = [];
  for (let c = 0; c < clients; c++) {
    const files = [];
    for (const [d, doc] of DOCUMENTS.entries()) {
      const body = markdownBody(doc.bytes - Buffer.byteLength(markerLine(0)) - 1, 100 * c + d + 1);
      const file = path.join(workspace, `client-${c}`, `${doc.name}.md`);
      await fs.mkdir(path.dirname(file), { recursive: true });
      await fs.writeFile(file, documentAt(body, 0));
      files.push({ path: file, body });
    }
    perClient.push(files);
  }
  return perClient;
}

// ---------------------------------------------------------------------------------------------
// One run against one server

async function loadRun(name, server, options, workspace) {
  const inspector = await inspect(server.inspectorUrl);
  const pid = server.child.pid;
  const total = options.clients * options.calls;
  log(
    `\n[${name}] ${options.clients} clients × ${options.calls} calls = ${total}, RSS every ${options.sampleEvery} calls`,
  );
  try {
    const files = await writeDocuments(path.join(workspace, name), options.clients);
    await inspector.gc();
    const start = { rss: await rssOf(pid), heap: await inspector.heap() };
    if (options.heapSnapshotDir)
      await inspector.snapshot(path.join(options.heapSnapshotDir, `${name}-before.heapsnapshot`));
    const curve = [{ calls: 0, rss: start.rss }];
    let done = 0;
    let sampling = Promise.resolve();
    const onCall = async () => {
      done++;
      if (done % options.sampleEvery === 0) {
        const at = done;
        sampling = sampling.then(async () => curve.push({ calls: at, rss: await rssOf(pid) }));
      }
    };
    const connections = await Promise.all(files.map((_, index) => connect(server, index)));
    const started = performance.now();
    const latencies = (
      await Promise.all(
        connections.map((connection, c) =>
          runClient(connection, files[c], options.calls, options.derived, onCall),
        ),
      )
    ).flat();
    const elapsed = performance.now() - started;
    await sampling;
    const afterLoad = { rss: await rssOf(pid) };
    await inspector.gc();
    afterLoad.rssGc = await rssOf(pid);
    afterLoad.heap = await inspector.heap();
    if (options.heapSnapshotDir)
      await inspector.snapshot(path.join(options.heapSnapshotDir, `${name}-load.heapsnapshot`));
    // The clients leave the way an SDK client does (DELETE of the session), then the server idles.
    for (const { transport, client } of connections) {
      await transport.terminateSession().catch(() => undefined);
      await client.close();
    }
    await new Promise((resolve) => setTimeout(resolve, options.idleMs));
    await inspector.gc();
    const idle = { rss: await rssOf(pid), heap: await inspector.heap() };
    if (options.heapSnapshotDir)
      await inspector.snapshot(path.join(options.heapSnapshotDir, `${name}-after.heapsnapshot`));
    return {
      calls: total,
      seconds: round(elapsed / 1000),
      calls_per_s: round(total / (elapsed / 1000)),
      p50_ms: round(quantile(latencies, 0.5)),
      p99_ms: round(quantile(latencies, 0.99)),
      max_ms: round(Math.max(...latencies)),
      rss_start_mb: mb(start.rss),
      heap_start_mb: mb(start.heap.used),
      rss_end_mb: mb(afterLoad.rss),
      rss_end_gc_mb: mb(afterLoad.rssGc),
      heap_end_gc_mb: mb(afterLoad.heap.used),
      rss_idle_gc_mb: mb(idle.rss),
      heap_idle_gc_mb: mb(idle.heap.used),
      heap_committed_idle_gc_mb: mb(idle.heap.total),
      external_idle_gc_mb: mb(idle.heap.external),
      // Heap kept per call while the sessions were open, after a full GC.
      heap_kb_per_call: round((afterLoad.heap.used - start.heap.used) / 1024 / total, 2),
      // RSS growth over the second half of the run: near zero once the curve has levelled off.
      rss_second_half_mb: mb(curve.at(-1).rss - curve[Math.floor((curve.length - 1) / 2)].rss),
      curve: curve.map((point) => ({ calls: point.calls, rss_mb: mb(point.rss) })),
    };
  } finally {
    inspector.close();
  }
}

const mb = (bytes) => round(bytes / 1024 / 1024, 1);

function report(results) {
  const names = Object.keys(results);
  const rows = [['', ...names]];
  const row = (label, key, format = (v) => String(v)) =>
    rows.push([label, ...names.map((n) => format(results[n][key]))]);
  row('calls', 'calls');
  row('calls / s', 'calls_per_s');
  row('p50', 'p50_ms', fmtMs);
  row('p99', 'p99_ms', fmtMs);
  row('RSS at start (MB)', 'rss_start_mb');
  row('RSS after load (MB)', 'rss_end_mb');
  row('RSS after load + GC (MB)', 'rss_end_gc_mb');
  row('RSS after close + idle + GC', 'rss_idle_gc_mb');
  row('heap at start (MB)', 'heap_start_mb');
  row('heap after load + GC (MB)', 'heap_end_gc_mb');
  row('heap after idle + GC (MB)', 'heap_idle_gc_mb');
  row('  heap committed (MB)', 'heap_committed_idle_gc_mb');
  row('  external (MB)', 'external_idle_gc_mb');
  row('heap kept per call (KB)', 'heap_kb_per_call');
  row('RSS growth, 2nd half (MB)', 'rss_second_half_mb');
  log(`\n${table(rows)}`);
  for (const name of names) {
    log(`\nRSS curve, ${name} (calls → MB):`);
    const points = results[name].curve;
    const width = 40;
    const top = Math.max(...points.map((p) => p.rss_mb));
    const step = Math.max(1, Math.round(points.length / 32));
    for (let i = 0; i < points.length; i += step) {
      const p = points[i];
      log(
        `  ${String(p.calls).padStart(6)}  ${String(p.rss_mb).padStart(6)}  ${'#'.repeat(Math.round((p.rss_mb / top) * width))}`,
      );
    }
  }
}

// ---------------------------------------------------------------------------------------------

let verbose = true;
let log = (line) => {
  if (verbose) process.stdout.write(`${line}\n`);
};

/** Runs the load against vmark (and the peer), prints its table and curves, and returns the figures. */
export async function runMcpLoadBench({ quick = false, log: logLine, ...given } = {}) {
  const options = { ...defaults(quick), ...given };
  if (logLine) log = logLine;
  if (!existsSync(VMARK_CLI)) throw new Error(`${VMARK_CLI} is missing: run \`npm run build\` first`);
  await fs.mkdir(options.tmpBase, { recursive: true });
  const root = await fs.realpath(await fs.mkdtemp(path.join(options.tmpBase, 'vmark-load-')));
  const workspace = path.join(root, 'workspace');
  const home = path.join(root, 'home');
  await fs.mkdir(workspace, { recursive: true });
  await fs.mkdir(home, { recursive: true });
  if (options.heapSnapshotDir) await fs.mkdir(options.heapSnapshotDir, { recursive: true });
  log(`vmark MCP load — node ${process.version}, ${os.cpus().length} CPU(s); temp: ${root}`);
  const results = {};
  try {
    const vmark = await startServer(
      'vmark',
      [...options.vmarkNodeArgs, VMARK_CLI, 'mcp', '--http', '--workspace', workspace],
      {
        VMARK_HOME: home,
      },
    );
    try {
      results.vmark = await loadRun('vmark', vmark, options, workspace);
    } finally {
      await vmark.stop();
    }
    if (options.peer) {
      const peer = await startServer('peer', [PEER_SERVER, workspace], {});
      try {
        results.peer = await loadRun('peer', peer, options, workspace);
      } finally {
        await peer.stop();
      }
    }
  } finally {
    if (!options.keep) await fs.rm(root, { recursive: true, force: true }).catch(() => undefined);
  }
  report(results);
  const summary = { clients: options.clients, calls_per_client: options.calls, peer: PEER_NAME, ...results };
  if (results.peer) {
    summary.p99_ratio = round(ratio(results.vmark.p99_ms, results.peer.p99_ms));
    summary.heap_per_call_vmark_minus_peer_kb = round(
      results.vmark.heap_kb_per_call - results.peer.heap_kb_per_call,
      2,
    );
  }
  return summary;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  runMcpLoadBench(readOptions()).then(
    (summary) => {
      process.stdout.write(`BENCH_JSON ${JSON.stringify(summary)}\n`);
      process.exit(0);
    },
    (error) => {
      verbose = false;
      process.stderr.write(
        `bench: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
      );
      process.exit(1);
    },
  );
}
