#!/usr/bin/env node
/**
 * The editor in Chromium (playwright-core, Debian's /usr/bin/chromium or VMARK_CHROMIUM) against the built
 * `vmark serve`, with a bare CodeMirror 6 page (bench/editor-peer-page.mjs, same @codemirror packages,
 * same Chromium) as the peer measured in the same run:
 *
 *   a. keystroke → render on a 1 MB document: from the keydown event to the character in the editor's DOM
 *      and to the next frame; vmark in live preview and in source mode, and (vmark only) to the host's
 *      confirmation of the change coming back over the WebSocket.
 *   b. MCP write → render on the same document: an MCP client of the same host calls `document.write`
 *      with a one-line change; time until the page shows it, and (vmark only) until the host's
 *      `doc.updates` with it reaches the page. Peer: the same change through the bare editor's own
 *      `dispatch`.
 *   c. open a 10 MB document: from the click in the file tree to the editor showing its last line
 *      (scrolled to the end). Peer: fetch of the same file from a static server + a new EditorState,
 *      then the same scroll.
 *   d. keystroke → render on a 1 MB note full of what Live mode draws (tables with math in their
 *      cells, inline and block math, tasks, callouts, images; ADR 73): Live mode against Source
 *      mode on the same note, in the same page, by turns (issue 20: within 1.2×). Generated, never committed.
 *
 * Page-side clocks (event.timeStamp, performance.now) time (a) and (c); (b) crosses processes and
 * compares `performance.timeOrigin + now()` of Node and of the page (one machine, one clock).
 *
 *   node bench/editor-latency.mjs [--quick] [--keep] [--rich-only] [--write-only] [--baseline=MAIN_JS]
 *     [--vmark-node-arg=ARG]...

 * `--rich-only` runs (d) alone, `--write-only` (b) alone. `--baseline=PATH/core/dist/bundle/main.js` runs (b)
 * alone against another build of vmark too, the two hosts and the peer taking turns in every round.
 *
 * `--vmark-node-arg=--cpu-prof --vmark-node-arg=--cpu-prof-dir=DIR` profiles `vmark serve` under this load
 * (bench/cpuprofile-summary.mjs reads the result).
 */
// The functions handed to addInitScript and page.evaluate run in the page, where these are defined.
/* global window, document, addEventListener, requestAnimationFrame, MutationObserver */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import { createServer } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { chromium } from 'playwright-core';
import { build } from 'rolldown';
import { markdownBody, markerLine, richMarkdownBody } from './markdown-fixture.mjs';
import { fmtMs, fmtRatio, ratio, round, summarize, table } from './stats.mjs';

const REPO = fileURLToPath(new URL('..', import.meta.url));
const VMARK_CLI = path.join(REPO, 'core', 'dist', 'bundle', 'main.js');
const PEER_NAME = 'bare CodeMirror 6 page';
const FLOOR_NAME = 'MCP SDK McpServer (Streamable HTTP) forwarding the change to a bare CodeMirror 6 page';
const VIEWPORT = { width: 1280, height: 800 };
const END_LINE = 'The last line of the large document.';

const COUNTS = {
  full: { keys: 150, keyWarmup: 15, hugeKeys: 60, writes: 40, writeWarmup: 5, opens: 6 },
  quick: { keys: 40, keyWarmup: 5, hugeKeys: 20, writes: 12, writeWarmup: 2, opens: 3 },
};

/**
 * Installed in every page before its scripts: timestamps of key presses and clicks, of `doc.updates`
 * messages from the host, and waits for text to reach the editor's DOM.
 */
export function pageProbe() {
  const probe = { lastKey: 0, lastClick: 0, updates: [] };
  addEventListener('keydown', (event) => (probe.lastKey = event.timeStamp), true);
  addEventListener('click', (event) => (probe.lastClick = event.timeStamp), true);
  const NativeSocket = WebSocket;
  window.WebSocket = class extends NativeSocket {
    constructor(...args) {
      super(...args);
      this.addEventListener('message', (event) => {
        if (typeof event.data === 'string' && event.data.slice(0, 40).includes('"doc.updates"'))
          probe.updates.push(performance.now());
      });
    }
  };
  const content = () => document.querySelector('.cm-content');
  const has = (text) => content()?.textContent.includes(text) ?? false;
  /** Resolves with the time `text` is in the editor's DOM and the time of the frame after it. */
  probe.arm = (text) => {
    probe.pending = new Promise((resolve) => {
      const done = () => {
        const dom = performance.now();
        // The frame that shows the change: rAF runs before paint, the message task after it.
        requestAnimationFrame(() => {
          const channel = new MessageChannel();
          channel.port1.onmessage = () =>
            resolve({ dom, frame: performance.now(), origin: performance.timeOrigin });
          channel.port2.postMessage(0);
        });
      };
      if (has(text)) return done();
      const observer = new MutationObserver(() => {
        if (!has(text)) return;
        observer.disconnect();
        done();
      });
      observer.observe(document.body, { subtree: true, childList: true, characterData: true });
    });
  };
  /**
   * Resolves at a moment drawn at random from the next frame's length (1/60 s). A change from the host
   * reaches the page whenever its message does, so it waits part of a frame for the next one; the
   * peer's dispatch, sent right after a key press whose answer the browser gives at a frame, would
   * otherwise meet the frame just begun (ADR 107).
   */
  probe.anyMoment = () => new Promise((resolve) => setTimeout(resolve, Math.random() * (1000 / 60)));
  /** The first `doc.updates` after `since`, or null after 10 s. */
  probe.confirmedAfter = async (since) => {
    const deadline = performance.now() + 10_000;
    while (performance.now() < deadline) {
      const at = probe.updates.find((t) => t > since);
      if (at !== undefined) return at;
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    return null;
  };
  /** Waits for `first` in the editor, then scrolls to the end every frame until `last` shows. */
  probe.scrollToEnd = async (first, last) => {
    probe.arm(first);
    const shown = await probe.pending;
    for (;;) {
      await new Promise((resolve) => requestAnimationFrame(resolve));
      if (has(last)) return { first: shown.dom, end: performance.now() };
      const scroller = document.querySelector('.cm-scroller');
      if (scroller) scroller.scrollTop = scroller.scrollHeight;
    }
  };
  window.__bench = probe;
}

// ---------------------------------------------------------------------------------------------
// Set-up: documents, vmark serve, the peer page, Chromium

async function writeDocuments(dir) {
  const large = `${markerLine(0)}\n${markdownBody(1024 * 1024 - markerLine(0).length - 1, 1024)}`;
  const hugeBody = markdownBody(10 * 1024 * 1024 - 200, 10240);
  const huge = `# The 10 MB document\n\n${hugeBody}\n${END_LINE}\n`;
  await fs.writeFile(path.join(dir, 'large.md'), large);
  await fs.writeFile(path.join(dir, 'huge.md'), huge);
  await fs.writeFile(path.join(dir, 'rich.md'), richMarkdownBody(1024 * 1024, 73));
  return { large, huge };
}

export async function startServe(
  workspace,
  home,
  { open = 'large.md', env = {}, nodeArgs = [], cli = VMARK_CLI } = {},
) {
  const child = spawn(
    process.execPath,
    [...nodeArgs, cli, 'serve', '--workspace', workspace, '--open', path.join(workspace, open)],
    { env: { ...process.env, ...env, VMARK_HOME: home }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const lines = createInterface({ input: child.stdout });
  const [first, second] = await new Promise((resolve, reject) => {
    const got = [];
    lines.on('line', (line) => {
      got.push(line);
      if (got.length === 2) resolve(got);
    });
    child.once('exit', (code) => reject(new Error(`vmark serve exited with ${code}: ${stderr}`)));
  });
  const mcpUrl = /(http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(second)?.[1];
  if (!mcpUrl) throw new Error(`vmark serve: no MCP endpoint in ${JSON.stringify(second)}`);
  return {
    url: first,
    pid: child.pid,
    token: new URL(first).searchParams.get('token'),
    mcpUrl,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/**
 * The floor of the MCP write rows (bench/mcp-write-floor-server.mjs): the SDK's own McpServer whose
 * `document.write` only forwards the first line's change to a bare CodeMirror page (the peer's, loaded
 * with the same file) over a WebSocket; an MCP client like vmark's. What any MCP host pays.
 */
async function startFloor(browser, peerUrl, file) {
  const child = spawn(process.execPath, [path.join(REPO, 'bench', 'mcp-write-floor-server.mjs'), file], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const stop = () =>
    new Promise((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  try {
    const first = await new Promise((resolve, reject) => {
      createInterface({ input: child.stdout }).once('line', resolve);
      child.once('exit', (code) => reject(new Error(`the floor server exited with ${code}`)));
    });
    const { mcpUrl, wsUrl, token } = JSON.parse(first);
    const mcp = new Client({ name: 'vmark-bench-editor', version: '1.0.0' });
    await mcp.connect(
      new StreamableHTTPClientTransport(new URL(mcpUrl), {
        requestInit: { headers: { Authorization: `Bearer ${token}` } },
      }),
    );
    const page = await newPage(browser, peerUrl);
    await page.evaluate(() => window.peer.load('/large.md'));
    await page.evaluate(
      (url) =>
        new Promise((resolve, reject) => {
          const socket = new WebSocket(url);
          socket.onmessage = (event) => {
            const { change } = JSON.parse(event.data);
            window.peer.replace(change.from, change.to, change.insert);
          };
          socket.onopen = resolve;
          socket.onerror = reject;
        }),
      wsUrl,
    );
    return { mcp, page, stop: async () => (await mcp.close().catch(() => undefined), await stop()) };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Bundles the peer page and serves it with the benchmark's documents on 127.0.0.1. */
async function startPeerServer(dir, workspace) {
  await build({
    input: path.join(REPO, 'bench', 'editor-peer-page.mjs'),
    platform: 'browser',
    logLevel: 'silent',
    output: { file: path.join(dir, 'peer.js'), format: 'esm', minify: true },
  });
  const files = {
    '/': ['text/html', path.join(dir, 'index.html')],
    '/peer.js': ['text/javascript', path.join(dir, 'peer.js')],
    '/large.md': ['text/markdown; charset=utf-8', path.join(workspace, 'large.md')],
    '/huge.md': ['text/markdown; charset=utf-8', path.join(workspace, 'huge.md')],
  };
  await fs.writeFile(
    files['/'][1],
    '<!doctype html><meta charset="utf-8"><title>peer</title>' +
      '<style>html,body{margin:0;height:100%}#editor{height:100vh}#editor .cm-editor{height:100%}</style>' +
      '<div id="editor"></div><script type="module" src="/peer.js"></script>',
  );
  const server = createServer(async (request, response) => {
    const file = files[new URL(request.url ?? '/', 'http://x').pathname];
    if (!file) return response.writeHead(404).end();
    response.writeHead(200, { 'content-type': file[0], 'cache-control': 'no-store' });
    response.end(await fs.readFile(file[1]));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${server.address().port}/`, close: () => server.close() };
}

/** Debian's Chromium, headless; `extraArgs` after the usual ones. */
export function launchChromium(extraArgs = []) {
  return chromium.launch({
    executablePath: process.env.VMARK_CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      ...extraArgs,
    ],
  });
}

async function newPage(browser, url) {
  const page = await browser.newPage({ viewport: VIEWPORT });
  await page.addInitScript(pageProbe);
  await page.goto(url);
  return page;
}

// ---------------------------------------------------------------------------------------------
// a. keystroke → render

/** Types `count + warmup` characters at the end of the document; the first `warmup` are not timed. */
async function typeAtEnd(page, { count, warmup, confirm, tag }) {
  await page.locator('.cm-content').focus();
  await page.keyboard.press('Control+End');
  // A paragraph of its own, so that the whole typed text, unique per run, is what the page waits for.
  let typed = `Typed in ${tag}: `;
  await page.keyboard.type(`\n\n${typed}`);
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  const samples = { dom: [], frame: [], confirm: [] };
  for (let i = 0; i < warmup + count; i++) {
    const letter = letters[i % letters.length];
    typed += letter;
    await page.evaluate((text) => window.__bench.arm(text), typed);
    await page.keyboard.press(letter);
    const shown = await page.evaluate(() => window.__bench.pending);
    const key = await page.evaluate(() => window.__bench.lastKey);
    // Wait for the host as a person's next keystroke would, so each sample starts from a settled editor.
    const confirmed = confirm
      ? await page.evaluate((since) => window.__bench.confirmedAfter(since), key)
      : null;
    if (confirm && confirmed === null) throw new Error('vmark: a keystroke was not confirmed by the host');
    if (i < warmup) continue;
    samples.dom.push(shown.dom - key);
    samples.frame.push(shown.frame - key);
    if (confirm) samples.confirm.push(confirmed - key);
  }
  return {
    dom: summarize(samples.dom),
    frame: summarize(samples.frame),
    confirm: confirm ? summarize(samples.confirm) : null,
    samples,
  };
}

// ---------------------------------------------------------------------------------------------
// b. MCP write → render

/**
 * A sampler of MCP writes to large.md in `page`'s host: each call writes marker line `i` at the top
 * and resolves with the times from the call's start to its answer, to the host's `doc.updates` at
 * the page and to the frame that shows it.
 */
async function mcpWriter(page, mcp, text) {
  const state = await callTool(mcp, 'session', { action: 'get_state' });
  const tab = state.windows.flatMap((w) => w.tabs).find((t) => t.filePath?.endsWith('/large.md'));
  if (!tab) throw new Error('vmark: large.md is not open');
  let revision = tab.revision;
  const body = text.slice(markerLine(0).length);
  const sample = async (i) => {
    return timedToFrame(page, markerLine(i), async () => {
      const written = await callTool(mcp, 'document', {
        action: 'write',
        tabId: tab.id,
        content: `${markerLine(i)}${body}`,
        expected_revision: revision,
      });
      revision = written.revision;
    });
  };
  // Brought to the front before its turn (writeRounds): see there.
  return Object.assign(sample, { page });
}

/**
 * A sampler of MCP `selection.set` on the note `page` shows in source mode, the seed's range write (the
 * call carries the change, not the text; ADR 103): the first line selected in the page as a person
 * would (Ctrl+Home, Shift+End), the host told of it (polled with `selection.get`, not timed), then the
 * call replacing it with marker line `i`. Times as `mcpWriter`'s.
 */
async function mcpSelectionSetter(page, mcp) {
  const sample = async (i) => {
    await page.locator('.cm-content').focus();
    await page.keyboard.press('Control+Home');
    await page.keyboard.press('Shift+End');
    const { revision } = await firstLineSelected(mcp);
    return timedToFrame(page, markerLine(i), () =>
      callTool(mcp, 'selection', { action: 'set', content: markerLine(i), expected_revision: revision }),
    );
  };
  return Object.assign(sample, { page });
}

/**
 * Runs `call` (an MCP call that makes `line` appear in `page`) and times it, on one clock, to its answer,
 * to the host's `doc.updates` at the page and to the frame that shows `line`.
 */
async function timedToFrame(page, line, call) {
  await page.evaluate((text) => window.__bench.arm(text), line);
  const start = performance.timeOrigin + performance.now();
  await call();
  const answered = performance.timeOrigin + performance.now();
  const shown = await page.evaluate(() => window.__bench.pending);
  // The host's message with the change: what the page waited for, apart from drawing it.
  const heard = await page.evaluate(() => window.__bench.updates.at(-1));
  return {
    rendered: shown.origin + shown.frame - start,
    call: answered - start,
    heard: shown.origin + heard - start,
    // The page's own part: from the host's message to the frame that shows the change.
    drawn: shown.frame - heard,
  };
}

/** `selection.get` once the host has heard that the whole first line (a marker line) is selected. */
async function firstLineSelected(mcp) {
  const wholeMarker = /^<!-- bench iteration \d{8} -->$/;
  const deadline = performance.now() + 10_000;
  for (;;) {
    // BUSY (the editor has not caught up) is an answer to wait on, like a stale selection.
    const got = await mcp.callTool({ name: 'selection', arguments: { action: 'get' } });
    const data = got.structuredContent;
    if (!got.isError && data.range.from === 0 && wholeMarker.test(data.text)) return data;
    if (performance.now() > deadline)
      throw new Error(`vmark: the first line was not selected: ${JSON.stringify(data ?? got.content)}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** Samples of a writer (or of the peer's dispatch) collected into the rows' summaries. */
function writeSamples() {
  const samples = { rendered: [], call: [], heard: [], drawn: [] };
  return {
    add: (sample) => Object.entries(sample).forEach(([key, value]) => samples[key].push(value)),
    summary: () =>
      Object.fromEntries(Object.entries(samples).map(([key, values]) => [key, summarize(values)])),
  };
}

/** The peer's sampler: the same change through the bare editor's own `dispatch`, at any moment of a frame. */
function peerDispatcher(page) {
  const sample = async (i) => {
    await page.evaluate((line) => window.__bench.arm(line), markerLine(i));
    const start = await page.evaluate(
      async ({ from, to, insert }) => {
        await window.__bench.anyMoment();
        const t = performance.now();
        window.peer.replace(from, to, insert);
        return t;
      },
      { from: 0, to: markerLine(i - 1).length, insert: markerLine(i) },
    );
    const shown = await page.evaluate(() => window.__bench.pending);
    return shown.frame - start;
  };
  // Brought to the front before its turn (writeRounds): see there.
  return Object.assign(sample, { page });
}

/**
 * The peer's sampler for `selection.set`: the same first line selected the same way, then replaced
 * through the bare editor's own `dispatch` (what a paste over the selection does), at any moment of a frame.
 */
function peerSelectionDispatcher(page) {
  const sample = async (i) => {
    await page.locator('.cm-content').focus();
    await page.keyboard.press('Control+Home');
    await page.keyboard.press('Shift+End');
    await page.evaluate((line) => window.__bench.arm(line), markerLine(i));
    const start = await page.evaluate(async (insert) => {
      await window.__bench.anyMoment();
      const t = performance.now();
      window.peer.replaceSelection(insert);
      return t;
    }, markerLine(i));
    const shown = await page.evaluate(() => window.__bench.pending);
    return shown.frame - start;
  };
  return Object.assign(sample, { page });
}

/**
 * Writes in rounds: each round a block of `block` writes per sampler (the first two in ABBA order) and
 * as many peer dispatches between them, so that every host meets the same stretch of load, and a
 * write's aftermath in its host and page (a panel's refresh, the status bar's count) meets the next
 * write of the same host, not another's. Warm-ups first, not kept. Returns each sampler's summary,
 * the peer's, and the per-round ratios of the first two samplers' block medians (none for a single
 * sampler, which takes turns with the peer).
 */
async function writeRounds(samplers, dispatch, { writes, writeWarmup, block }) {
  const kept = samplers.map(() => writeSamples());
  const peerSamples = [];
  const ratios = [];
  let i = 0;
  for (const sampler of [...samplers, dispatch]) for (let w = 0; w < writeWarmup; w++) await sampler(++i);
  const rest = samplers.slice(2).map((_, k) => k + 2);
  for (let round = 0; round < Math.ceil(writes / block); round++) {
    const order =
      samplers.length === 1
        ? round % 2 === 0
          ? [0, 'peer']
          : ['peer', 0]
        : round % 2 === 0
          ? [0, 1, 'peer', ...rest]
          : [1, 0, ...[...rest].reverse(), 'peer'];
    const medians = [];
    for (const k of order) {
      const got = [];
      // The page whose turn it is in front: the browser favours its front page, and an A/A run
      // (one build as both hosts) came out 1.31× against the first page opened without this (ADR 93).
      await (k === 'peer' ? dispatch : samplers[k]).page.bringToFront();
      for (let w = 0; w < block; w++) {
        i++;
        if (k === 'peer') peerSamples.push(await dispatch(i));
        else {
          const sample = await samplers[k](i);
          kept[k].add(sample);
          got.push(sample.rendered);
        }
      }
      if (k !== 'peer') medians[k] = summarize(got).median;
    }
    if (samplers.length > 1) ratios.push(medians[0] / medians[1]);
  }
  return { summaries: kept.map((k) => k.summary()), dispatches: summarize(peerSamples), ratios };
}

/**
 * `selection.set` rounds in `page`'s source mode, taking turns with the peer's dispatch of the same
 * change; the page is back in Live mode after.
 */
async function selectionRounds(page, mcp, peer, counts) {
  await page.click('.mode-switch [data-mode=source]');
  const {
    summaries: [sets],
    dispatches: setDispatches,
  } = await writeRounds([await mcpSelectionSetter(page, mcp)], peerSelectionDispatcher(peer), counts);
  await page.click('.mode-switch [data-mode=wysiwyg]');
  return { sets, setDispatches };
}

/**
 * (b) alone, this build against another (`baseline`, e.g. main's `core/dist/bundle/main.js`) and the
 * peer in the same run: each round writes a block of writes to each host (ABBA order across rounds)
 * and dispatches as many in the peer page, so that both builds meet the same stretch of load.
 */
export async function runWriteComparison({
  baseline,
  quick = false,
  tmpBase = os.tmpdir(),
  log = console.log,
  vmarkNodeArgs = [],
}) {
  for (const cli of [VMARK_CLI, baseline])
    if (!existsSync(cli)) throw new Error(`${cli} is missing: build it first`);
  const counts = quick ? COUNTS.quick : COUNTS.full;
  const root = await fs.realpath(await fs.mkdtemp(path.join(tmpBase, 'vmark-bench-write-')));
  const large = `${markerLine(0)}\n${markdownBody(1024 * 1024 - markerLine(0).length - 1, 1024)}`;
  const hosts = [];
  let peerServer;
  let browser;
  let floor;
  try {
    for (const [name, cli] of [
      ['this build', VMARK_CLI],
      ['baseline', baseline],
    ]) {
      const workspace = path.join(root, `${hosts.length}`, 'workspace');
      const home = path.join(root, `${hosts.length}`, 'home');
      await fs.mkdir(workspace, { recursive: true });
      await fs.mkdir(home, { recursive: true });
      await fs.writeFile(path.join(workspace, 'large.md'), large);
      const nodeArgs = cli === VMARK_CLI ? vmarkNodeArgs : [];
      hosts.push({ name, workspace, served: await startServe(workspace, home, { cli, nodeArgs }) });
    }
    peerServer = await startPeerServer(root, hosts[0].workspace);
    browser = await launchChromium();
    log(`\n[editor] MCP document.write → render: this build, ${baseline} and ${PEER_NAME}`);
    const samplers = [];
    for (const host of hosts) {
      const mcp = new Client({ name: 'vmark-bench-editor', version: '1.0.0' });
      await mcp.connect(
        new StreamableHTTPClientTransport(new URL(host.served.mcpUrl), {
          requestInit: { headers: { Authorization: `Bearer ${host.served.token}` } },
        }),
      );
      host.mcp = mcp;
      const page = await newPage(browser, host.served.url);
      await page.locator('.cm-content').waitFor();
      samplers.push(await mcpWriter(page, mcp, large));
    }
    const peer = await newPage(browser, peerServer.url);
    await peer.evaluate(() => window.peer.load('/large.md'));
    const dispatch = peerDispatcher(peer);
    floor = await startFloor(browser, peerServer.url, path.join(hosts[0].workspace, 'large.md'));
    const floorSampler = await mcpWriter(floor.page, floor.mcp, large);
    const block = quick ? 3 : 5;
    log(`  ${counts.writeWarmup} warm-up writes each, then rounds of ${block} writes each (ABBA)`);
    const { summaries, dispatches, ratios } = await writeRounds([...samplers, floorSampler], dispatch, {
      ...counts,
      block,
    });
    const [mine, base, floorWrites] = summaries;
    const perRound = summarize(ratios);
    log(
      `  selection.set: ${counts.writeWarmup} warm-ups each, then rounds of ${block} each (ABBA), source mode`,
    );
    for (const sampler of samplers) await sampler.page.click('.mode-switch [data-mode=source]');
    const setters = [];
    for (const [k, host] of hosts.entries())
      setters.push(await mcpSelectionSetter(samplers[k].page, host.mcp));
    const sets = await writeRounds(setters, peerSelectionDispatcher(peer), { ...counts, block });
    const setsPerRound = summarize(sets.ratios);
    log('');
    log(
      table([
        ['MCP write, 1 MB (vs bare CodeMirror)', 'median', 'p90', 'ratio to peer'],
        ...[
          ['this build', mine],
          ['baseline', base],
        ].flatMap(([name, w]) => [
          [
            `${name}: write → frame`,
            fmtMs(w.rendered.median),
            fmtMs(w.rendered.p90),
            fmtRatio(ratio(w.rendered.median, dispatches.median)),
          ],
          [`${name}: write → doc.updates`, fmtMs(w.heard.median), fmtMs(w.heard.p90), '—'],
          [`${name}: document.write call`, fmtMs(w.call.median), fmtMs(w.call.p90), '—'],
        ]),
        ['peer: dispatch → frame', fmtMs(dispatches.median), fmtMs(dispatches.p90), '—'],
        [
          'FLOOR (SDK server → bare page): write → frame',
          fmtMs(floorWrites.rendered.median),
          fmtMs(floorWrites.rendered.p90),
          fmtRatio(ratio(floorWrites.rendered.median, dispatches.median)),
        ],
        ['FLOOR: write → doc.updates', fmtMs(floorWrites.heard.median), fmtMs(floorWrites.heard.p90), '—'],
        ...[
          ['this build', sets.summaries[0]],
          ['baseline', sets.summaries[1]],
        ].flatMap(([name, w]) => [
          [
            `${name}: selection.set → frame`,
            fmtMs(w.rendered.median),
            fmtMs(w.rendered.p90),
            fmtRatio(ratio(w.rendered.median, sets.dispatches.median)),
          ],
          [`${name}: selection.set → doc.updates`, fmtMs(w.heard.median), fmtMs(w.heard.p90), '—'],
        ]),
        [
          'peer: dispatch → frame (selection rounds)',
          fmtMs(sets.dispatches.median),
          fmtMs(sets.dispatches.p90),
          '—',
        ],
      ]),
    );
    log(
      `  this build / baseline, write → frame, median of the per-round ratios (of block medians): ${fmtRatio(perRound.median)}`,
    );
    log(
      `  this build / baseline, selection.set → frame, median of the per-round ratios: ${fmtRatio(setsPerRound.median)}`,
    );
    return {
      peer: PEER_NAME,
      baseline,
      n: counts.writes,
      floor: FLOOR_NAME,
      this_build: writeSummary(mine, dispatches, floorWrites),
      baseline_build: writeSummary(base, dispatches, floorWrites),
      ratio_to_baseline_per_round: round(perRound.median),
      selection_set: {
        this_build: selectionSummary(sets.summaries[0], sets.dispatches),
        baseline_build: selectionSummary(sets.summaries[1], sets.dispatches),
        ratio_to_baseline_per_round: round(setsPerRound.median),
      },
    };
  } finally {
    for (const host of hosts) await host.mcp?.close().catch(() => undefined);
    await floor?.stop();
    await browser?.close();
    peerServer?.close();
    for (const host of hosts) await host.served.stop();
    await fs.rm(root, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------
// d. keystroke → render on the rich 1 MB note, Live against Source

/**
 * Opens rich.md from the tree and types at its end in Live and Source mode by turns, A-B-B-A, half
 * the keys in each block: the mode typed first after the note opens meets a colder page (its parse and
 * the page's code not yet warm), which the other never does (ADR 109).
 */
async function richKeystrokes(page, typing) {
  await page.locator('.tree-file-row', { hasText: /^\s*rich(\.md)?\s*$/ }).click();
  await page.locator('.cm-content', { hasText: 'Rich benchmark document' }).waitFor();
  const half = { ...typing, count: Math.ceil(typing.count / 2), confirm: true };
  const blocks = { live: [], source: [] };
  let drawn = 0;
  for (const mode of ['live', 'source', 'source', 'live']) {
    await page.click(`.mode-switch [data-mode=${mode === 'live' ? 'wysiwyg' : 'source'}]`);
    if (mode === 'live') {
      // The note's end, drawn: its last section's table is on screen while the keys are typed.
      await page.locator('.cm-content').focus();
      await page.keyboard.press('Control+End');
      await page.locator('.cm-lp-table').last().waitFor();
    }
    blocks[mode].push(await typeAtEnd(page, { ...half, tag: `rich, ${mode} ${blocks[mode].length + 1}` }));
    if (mode !== 'live') continue;
    drawn = await page.locator('.cm-lp-table, .cm-lp-math, .cm-lp-task').count();
    if (drawn === 0) throw new Error('vmark: the rich note was not drawn in Live mode');
  }
  const pooled = (list) => ({
    dom: summarize(list.flatMap((block) => block.samples.dom)),
    frame: summarize(list.flatMap((block) => block.samples.frame)),
    confirm: summarize(list.flatMap((block) => block.samples.confirm)),
  });
  return { live: pooled(blocks.live), source: pooled(blocks.source), drawn };
}

/** (d) alone: `vmark serve` on the rich note, its keystrokes in Live and Source mode. */
export async function runRichLatencyBench({ quick = false, tmpBase = os.tmpdir(), log = console.log }) {
  if (!existsSync(VMARK_CLI)) throw new Error(`${VMARK_CLI} is missing: run \`npm run build\` first`);
  const counts = quick ? COUNTS.quick : COUNTS.full;
  const root = await fs.realpath(await fs.mkdtemp(path.join(tmpBase, 'vmark-bench-rich-')));
  const workspace = path.join(root, 'workspace');
  await fs.mkdir(workspace, { recursive: true });
  await fs.mkdir(path.join(root, 'home'), { recursive: true });
  const rich = richMarkdownBody(1024 * 1024, 73);
  await fs.writeFile(path.join(workspace, 'rich.md'), rich);
  let served;
  let browser;
  try {
    served = await startServe(workspace, path.join(root, 'home'), { open: 'rich.md' });
    browser = await launchChromium();
    const page = await newPage(browser, served.url);
    await page.locator('.cm-content').waitFor();
    log(
      `\n[editor] the rich 1 MB note (${Buffer.byteLength(rich)} bytes), ${counts.keyWarmup} + ${counts.keys} keys per mode`,
    );
    const rows = await richKeystrokes(page, { count: counts.keys, warmup: counts.keyWarmup });
    log(richTable(rows));
    return richSummary(rows);
  } finally {
    await browser?.close();
    await served?.stop();
    await fs.rm(root, { recursive: true, force: true });
  }
}

function richTable({ live, source }) {
  const row = (label, a, b) => [
    label,
    fmtMs(a.median),
    fmtMs(a.p90),
    fmtMs(b.median),
    fmtMs(b.p90),
    fmtRatio(ratio(a.median, b.median)),
  ];
  return table([
    ['rich 1 MB note (Live vs Source)', 'live med', 'live p90', 'source med', 'source p90', 'ratio med'],
    row('d. key → DOM', live.dom, source.dom),
    row('d. key → frame', live.frame, source.frame),
    row('d. key → host confirmed', live.confirm, source.confirm),
  ]);
}

function richSummary({ live, source, drawn }) {
  return {
    n: live.frame.n,
    drawn_widgets_at_end: drawn,
    live: { dom: stat(live.dom), frame: stat(live.frame) },
    source: { dom: stat(source.dom), frame: stat(source.frame) },
    ratio_frame_live_to_source: round(ratio(live.frame.median, source.frame.median)),
  };
}

// ---------------------------------------------------------------------------------------------
// c. open a 10 MB document

/** Clicks the 10 MB file in the tree; times from the click to its first line, and to its last. */
async function vmarkOpenHuge(page) {
  const [shown] = await Promise.all([
    page.evaluate(() => window.__bench.scrollToEnd('The 10 MB document', 'The last line of')),
    page.locator('.tree-file-row', { hasText: /^\s*huge(\.md)?\s*$/ }).click(),
  ]);
  const click = await page.evaluate(() => window.__bench.lastClick);
  return { first: shown.first - click, end: shown.end - click };
}

/** Closes the 10 MB tab (discarding typed text) through MCP, so the next open reads the file again. */
async function vmarkCloseHuge(page, mcp) {
  const state = await callTool(mcp, 'session', { action: 'get_state' });
  const tab = state.windows.flatMap((w) => w.tabs).find((t) => t.filePath?.endsWith('/huge.md'));
  if (!tab) throw new Error('vmark: huge.md did not open');
  await callTool(mcp, 'workspace', { action: 'close', tabId: tab.id, force: true });
  await page.locator('.tab', { hasText: /^\s*huge/ }).waitFor({ state: 'detached' });
}

async function vmarkOpens(page, mcp, count) {
  const samples = { first: [], end: [] };
  for (let i = 0; i < count; i++) {
    const shown = await vmarkOpenHuge(page);
    samples.first.push(shown.first);
    samples.end.push(shown.end);
    await vmarkCloseHuge(page, mcp);
  }
  return { first: summarize(samples.first), end: summarize(samples.end) };
}

async function peerOpens(page, count) {
  const samples = { first: [], end: [] };
  for (let i = 0; i < count; i++) {
    await page.evaluate(() => window.peer.load('/large.md'));
    const shown = await page.evaluate(async () => {
      const start = performance.now();
      const waiting = window.__bench.scrollToEnd('The 10 MB document', 'The last line of');
      await window.peer.load('/huge.md');
      const times = await waiting;
      return { first: times.first - start, end: times.end - start };
    });
    samples.first.push(shown.first);
    samples.end.push(shown.end);
  }
  return { first: summarize(samples.first), end: summarize(samples.end) };
}

// ---------------------------------------------------------------------------------------------

async function callTool(mcp, name, args) {
  const result = await mcp.callTool({ name, arguments: args });
  const data = result.structuredContent ?? JSON.parse(result.content?.[0]?.text ?? 'null');
  if (result.isError) throw new Error(`${name}.${args.action}: ${JSON.stringify(data ?? result.content)}`);
  return data;
}

const row = (label, a, b) => [
  label,
  fmtMs(a.median),
  fmtMs(a.p90),
  b ? fmtMs(b.median) : '—',
  b ? fmtMs(b.p90) : '—',
  b ? fmtRatio(ratio(a.median, b.median)) : '—',
];

const EDITOR_HEADER = [
  'editor (vmark vs bare CodeMirror)',
  'vmark med',
  'vmark p90',
  'peer med',
  'peer p90',
  'ratio med',
];

const writeRows = (writes, dispatches, floor, sets, setDispatches) => [
  row('b. write → frame (peer: dispatch)', writes.rendered, dispatches),
  row('b. write → doc.updates at the page', writes.heard),
  row('b. document.write call', writes.call),
  row('b. FLOOR (SDK server → bare page): write → frame', floor.rendered, dispatches),
  row('b. FLOOR: write → doc.updates at the page', floor.heard),
  row('b. vmark / FLOOR: write → frame', writes.rendered, floor.rendered),
  row('b. vmark / FLOOR page: doc.updates → frame', writes.drawn, floor.drawn),
  row('b. selection.set → frame (peer: dispatch)', sets.rendered, setDispatches),
  row('b. selection.set → doc.updates at the page', sets.heard),
  row('b. selection.set call', sets.call),
];

const writeTable = (...args) => table([EDITOR_HEADER, ...writeRows(...args)]);

const selectionSummary = (sets, dispatches) => ({
  n: sets.rendered.n,
  vmark: stat(sets.rendered),
  vmark_call: stat(sets.call),
  vmark_heard: stat(sets.heard),
  vmark_page: stat(sets.drawn),
  peer_dispatch: stat(dispatches),
  ratio: round(ratio(sets.rendered.median, dispatches.median)),
});

const writeSummary = (writes, dispatches, floor) => ({
  n: writes.rendered.n,
  vmark: stat(writes.rendered),
  vmark_call: stat(writes.call),
  vmark_heard: stat(writes.heard),
  vmark_page: stat(writes.drawn),
  peer_dispatch: stat(dispatches),
  ratio: round(ratio(writes.rendered.median, dispatches.median)),
  floor: stat(floor.rendered),
  floor_heard: stat(floor.heard),
  floor_page: stat(floor.drawn),
  floor_ratio: round(ratio(floor.rendered.median, dispatches.median)),
  ratio_to_floor: round(ratio(writes.rendered.median, floor.rendered.median)),
});

const stat = (s) => ({
  median_ms: round(s.median),
  p90_ms: round(s.p90),
  min_ms: round(s.min),
  max_ms: round(s.max),
  n: s.n,
});

/** Runs the three measurements; prints a table and returns the JSON summary. */
export async function runEditorLatencyBench({
  quick = false,
  tmpBase = os.tmpdir(),
  keep = false,
  log = console.log,
  vmarkNodeArgs = [],
  writeOnly = false,
}) {
  if (!existsSync(VMARK_CLI)) throw new Error(`${VMARK_CLI} is missing: run \`npm run build\` first`);
  const counts = quick ? COUNTS.quick : COUNTS.full;
  const root = await fs.realpath(await fs.mkdtemp(path.join(tmpBase, 'vmark-bench-editor-')));
  const workspace = path.join(root, 'workspace');
  const home = path.join(root, 'home');
  await fs.mkdir(workspace, { recursive: true });
  await fs.mkdir(home, { recursive: true });
  const { large } = await writeDocuments(workspace);

  let served;
  let peerServer;
  let browser;
  let mcp;
  let floor;
  try {
    served = await startServe(workspace, home, { nodeArgs: vmarkNodeArgs });
    peerServer = await startPeerServer(root, workspace);
    browser = await launchChromium();
    mcp = new Client({ name: 'vmark-bench-editor', version: '1.0.0' });
    await mcp.connect(
      new StreamableHTTPClientTransport(new URL(served.mcpUrl), {
        requestInit: { headers: { Authorization: `Bearer ${served.token}` } },
      }),
    );
    log(`\n[editor] Chromium ${browser.version()}; vmark serve vs ${PEER_NAME}; 1 MB and 10 MB Markdown`);

    const vmark = await newPage(browser, served.url);
    await vmark.locator('.cm-content').waitFor();
    const peer = await newPage(browser, peerServer.url);
    await peer.evaluate(() => window.peer.load('/large.md'));
    // Before vmark's writes change large.md on disk: the floor's page starts from the same text.
    floor = await startFloor(browser, peerServer.url, path.join(workspace, 'large.md'));

    log(`  b. MCP document.write → render, ${counts.writeWarmup} + ${counts.writes}`);
    const {
      summaries: [writes, floorWrites],
      dispatches,
      ratios,
    } = await writeRounds(
      [await mcpWriter(vmark, mcp, large), await mcpWriter(floor.page, floor.mcp, large)],
      peerDispatcher(peer),
      { ...counts, block: quick ? 3 : 5 },
    );
    await floor.stop();
    log(`  b. MCP selection.set → render (source mode), ${counts.writeWarmup} + ${counts.writes}`);
    const { sets, setDispatches } = await selectionRounds(vmark, mcp, peer, {
      ...counts,
      block: quick ? 3 : 5,
    });
    // The rounds left another page in front; the keystrokes below are typed into vmark's.
    await vmark.bringToFront();
    const toFloor = summarize(ratios).median;
    if (writeOnly) {
      log('');
      log(writeTable(writes, dispatches, floorWrites, sets, setDispatches));
      log(
        `  vmark / FLOOR, write → frame, median of the per-round ratios (of block medians): ${fmtRatio(toFloor)}`,
      );
      return {
        peer: PEER_NAME,
        floor: FLOOR_NAME,
        chromium: browser.version(),
        mcp_write: {
          ...writeSummary(writes, dispatches, floorWrites),
          ratio_to_floor_per_round: round(toFloor),
        },
        mcp_selection_set: selectionSummary(sets, setDispatches),
      };
    }

    log(`  a. keystroke → render, ${counts.keyWarmup} + ${counts.keys} per editor`);
    const typing = { count: counts.keys, warmup: counts.keyWarmup };
    const keysLive = await typeAtEnd(vmark, { ...typing, confirm: true, tag: 'live preview' });
    await vmark.click('.mode-switch [data-mode=source]');
    const keysSource = await typeAtEnd(vmark, { ...typing, confirm: true, tag: 'source mode' });
    const keysPeer = await typeAtEnd(peer, { ...typing, confirm: false, tag: 'the peer' });

    log(`  c. open 10 MB → last line shown, ${counts.opens} per editor`);
    const opensVmark = await vmarkOpens(vmark, mcp, counts.opens);
    const opensPeer = await peerOpens(peer, counts.opens);

    // Each accepted keystroke costs the host a whole-text replace (ADR 15): seen at 10 MB if anywhere.
    log(`  a. keystroke → render in the 10 MB document, ${counts.keyWarmup} + ${counts.hugeKeys} per editor`);
    const hugeTyping = { count: counts.hugeKeys, warmup: counts.keyWarmup };
    await vmarkOpenHuge(vmark);
    const hugeKeysVmark = await typeAtEnd(vmark, { ...hugeTyping, confirm: true, tag: '10 MB, vmark' });
    await vmarkCloseHuge(vmark, mcp);
    const hugeKeysPeer = await typeAtEnd(peer, { ...hugeTyping, confirm: false, tag: '10 MB, peer' });

    log(`  d. keystroke → render in the rich 1 MB note, ${counts.keyWarmup} + ${counts.keys} per mode`);
    const richKeys = await richKeystrokes(vmark, typing);

    log('');
    log(
      table([
        EDITOR_HEADER,
        row('a. key → DOM, live preview', keysLive.dom, keysPeer.dom),
        row('a. key → frame, live preview', keysLive.frame, keysPeer.frame),
        row('a. key → DOM, source', keysSource.dom, keysPeer.dom),
        row('a. key → frame, source', keysSource.frame, keysPeer.frame),
        row('a. key → host confirmed, live', keysLive.confirm),
        row('a. key → host confirmed, source', keysSource.confirm),
        row('a. 10 MB: key → frame, source', hugeKeysVmark.frame, hugeKeysPeer.frame),
        row('a. 10 MB: key → host confirmed', hugeKeysVmark.confirm),
        ...writeRows(writes, dispatches, floorWrites, sets, setDispatches),
        row('c. open 10 MB → first line', opensVmark.first, opensPeer.first),
        row('c. open 10 MB → last line', opensVmark.end, opensPeer.end),
      ]),
    );
    log(
      `  vmark / FLOOR, write → frame, median of the per-round ratios (of block medians): ${fmtRatio(toFloor)}`,
    );
    log('');
    log(richTable(richKeys));
    return {
      peer: PEER_NAME,
      chromium: browser.version(),
      bytes: { large: Buffer.byteLength(large), huge: (await fs.stat(path.join(workspace, 'huge.md'))).size },
      keystroke: {
        n: counts.keys,
        live: { dom: stat(keysLive.dom), frame: stat(keysLive.frame), confirm: stat(keysLive.confirm) },
        source: {
          dom: stat(keysSource.dom),
          frame: stat(keysSource.frame),
          confirm: stat(keysSource.confirm),
        },
        peer: { dom: stat(keysPeer.dom), frame: stat(keysPeer.frame) },
        ratio_frame_live: round(ratio(keysLive.frame.median, keysPeer.frame.median)),
        ratio_frame_source: round(ratio(keysSource.frame.median, keysPeer.frame.median)),
      },
      keystroke_10mb: {
        n: counts.hugeKeys,
        vmark: {
          dom: stat(hugeKeysVmark.dom),
          frame: stat(hugeKeysVmark.frame),
          confirm: stat(hugeKeysVmark.confirm),
        },
        peer: { dom: stat(hugeKeysPeer.dom), frame: stat(hugeKeysPeer.frame) },
        ratio_frame: round(ratio(hugeKeysVmark.frame.median, hugeKeysPeer.frame.median)),
      },
      mcp_write: {
        ...writeSummary(writes, dispatches, floorWrites),
        ratio_to_floor_per_round: round(toFloor),
      },
      mcp_selection_set: selectionSummary(sets, setDispatches),
      rich_keystroke: richSummary(richKeys),
      open_10mb: {
        n: counts.opens,
        vmark: { first: stat(opensVmark.first), end: stat(opensVmark.end) },
        peer: { first: stat(opensPeer.first), end: stat(opensPeer.end) },
        ratio_end: round(ratio(opensVmark.end.median, opensPeer.end.median)),
      },
    };
  } finally {
    await mcp?.close().catch(() => undefined);
    await floor?.stop();
    await browser?.close();
    peerServer?.close();
    await served?.stop();
    if (!keep) await fs.rm(root, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const quick = process.argv.includes('--quick');
  const keep = process.argv.includes('--keep');
  const vmarkNodeArgs = process.argv
    .filter((arg) => arg.startsWith('--vmark-node-arg='))
    .map((arg) => arg.slice('--vmark-node-arg='.length));
  const baseline = process.argv.find((arg) => arg.startsWith('--baseline='))?.slice('--baseline='.length);
  const run = process.argv.includes('--rich-only')
    ? runRichLatencyBench({ quick }).then((rich) => ({ rich_keystroke: rich }))
    : baseline
      ? runWriteComparison({ baseline: path.resolve(baseline), quick, vmarkNodeArgs }).then((write) => ({
          write_vs_baseline: write,
        }))
      : runEditorLatencyBench({
          quick,
          keep,
          vmarkNodeArgs,
          writeOnly: process.argv.includes('--write-only'),
        });
  run.then(
    (summary) => process.stdout.write(`\nBENCH_JSON ${JSON.stringify({ editor: summary })}\n`),
    (error) => {
      process.stderr.write(
        `bench: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
      );
      process.exit(1);
    },
  );
}
