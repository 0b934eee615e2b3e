#!/usr/bin/env node
/**
 * The browser tab's live picture in the editor (issue 17, ADR 49): from a change of the page to the
 * frame shown in the editor's view. The built `vmark serve` (private network allowed), an AI client
 * of it opening a tab on a page served here, and the editor page in Chromium showing that tab. The
 * page changes its colour every TICK_MS and reports the time of each change (`performance.timeOrigin
 * + now()`, one machine, one clock) to this script's server; the editor page stamps each picture
 * when it has been decoded and the next frame drawn. Latency = first picture shown after a change −
 * the change.
 *
 * The editor page and the AI's tab run in one Chromium, as the goal asks: `vmark serve` is given
 * that browser's CDP endpoint (VMARK_BROWSER_ENDPOINT) instead of launching its own. For
 * comparison, the same run again with `vmark serve` launching its own Chromium (the default
 * outside this bench): two browser processes of the same binary.
 *
 * Peer, in the same run and the same Chromium: the raw CDP screencast (`Page.startScreencast` on a
 * page of a context of its own, frames taken in Node as they arrive, no host, no socket, no
 * decoding) — the floor any live view over CDP stands on. Also: the `vmark serve` process's CPU
 * while one tab is shown and changing (user + system time from /proc over the measured window).
 *
 *   node bench/browser-frames.mjs [--quick]
 */
/* global document, requestAnimationFrame, MutationObserver, window */
import fs from 'node:fs/promises';
import { createServer } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { launchChromium, startServe } from './editor-latency.mjs';
import { cpuSeconds } from './process-cpu.mjs';
import { fmtMs, fmtRatio, quantile, ratio, round, summarize, table } from './stats.mjs';

const PEER_NAME = 'raw CDP Page.startScreencast in Node';
const TARGET_MEDIAN_MS = 100;
const TICK_MS = 250;
const COUNTS = { full: { changes: 60, warmup: 5 }, quick: { changes: 20, warmup: 3 } };

/** Changes its colour every TICK_MS and tells the server when (the first changes are warm-up). */
const PAGE = `<!doctype html><title>Ticks</title><style>body{margin:0;height:100vh}</style><body><script>
let n = 0;
setInterval(() => {
  document.body.style.background = n % 2 ? '#2f6fde' : '#d98324';
  document.body.textContent = 'change ' + ++n;
  const at = performance.timeOrigin + performance.now();
  fetch('/tick?run=' + location.pathname.slice(1) + '&at=' + at);
}, ${TICK_MS});
</script>`;

/** The page and its tick reports, by run. */
async function startPages() {
  const ticks = new Map();
  const server = createServer((req, res) => {
    const url = new URL(req.url, 'http://x');
    if (url.pathname === '/tick') {
      const run = url.searchParams.get('run');
      if (!ticks.has(run)) ticks.set(run, []);
      ticks.get(run).push(Number(url.searchParams.get('at')));
      res.end();
      return;
    }
    res.setHeader('content-type', 'text/html');
    res.end(PAGE);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${server.address().port}`, ticks, close: () => server.close() };
}

/** For each change after the warm-up, the first frame at or after it: its delay. */
function latencies(changes, frames, warmup) {
  const out = [];
  for (const at of changes.slice(warmup)) {
    const shown = frames.find((f) => f >= at);
    if (shown !== undefined) out.push(shown - at);
  }
  return out;
}

const until = async (check, ms = 30_000) => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out waiting for the page to change');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};

async function peerRun(browser, pages, counts) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  const page = await context.newPage();
  const session = await context.newCDPSession(page);
  const frames = [];
  session.on('Page.screencastFrame', ({ sessionId }) => {
    frames.push(performance.timeOrigin + performance.now());
    void session.send('Page.screencastFrameAck', { sessionId }).catch(() => undefined);
  });
  await page.goto(`${pages.origin}/peer`);
  await session.send('Page.startScreencast', {
    format: 'jpeg',
    quality: 70,
    maxWidth: 1600,
    maxHeight: 1200,
  });
  await until(() => (pages.ticks.get('peer')?.length ?? 0) >= counts.changes + counts.warmup);
  await session.send('Page.stopScreencast');
  await context.close();
  return latencies(pages.ticks.get('peer'), frames, counts.warmup);
}

/** Stamps every picture the view shows, once decoded and drawn. */
function stampFrames() {
  window.__shown = [];
  const observe = () => {
    const picture = document.querySelector('.bt-picture');
    if (picture === null) return requestAnimationFrame(observe);
    new MutationObserver(() => {
      picture
        .decode()
        .then(() =>
          requestAnimationFrame(() => window.__shown.push(performance.timeOrigin + performance.now())),
        )
        .catch(() => undefined);
    }).observe(picture, { attributes: true, attributeFilter: ['src'] });
  };
  observe();
}

/** A port free on loopback now, for the browser's DevTools endpoint. */
async function freePort() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * One measured run of the editor: `run` names it (and its page); with `endpoint`, `vmark serve`
 * drives the AI's tab in that browser, else in a Chromium it launches itself.
 */
async function vmarkRun(browser, pages, counts, root, { run, endpoint }) {
  const workspace = path.join(root, run, 'workspace');
  const home = path.join(root, run, 'home');
  await fs.mkdir(workspace, { recursive: true });
  await fs.mkdir(home, { recursive: true });
  await fs.writeFile(path.join(workspace, 'Welcome.md'), '# Welcome\n');
  const served = await startServe(workspace, home, {
    open: 'Welcome.md',
    env: {
      VMARK_BROWSER_ALLOW_PRIVATE: '1',
      ...(endpoint === undefined ? {} : { VMARK_BROWSER_ENDPOINT: endpoint }),
    },
  });
  const mcp = new Client({ name: 'vmark-bench-frames', version: '1.0.0' });
  try {
    await mcp.connect(
      new StreamableHTTPClientTransport(new URL(served.mcpUrl), {
        requestInit: { headers: { Authorization: `Bearer ${served.token}` } },
      }),
    );
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(served.url);
    await page.locator('.editor-host .cm-content').waitFor();
    const opened = await mcp.callTool({
      name: 'browser',
      arguments: { action: 'open', url: `${pages.origin}/${run}` },
    });
    if (opened.isError) throw new Error(`browser.open failed: ${opened.content[0].text}`);
    const { tabId } = JSON.parse(opened.content[0].text);
    await page.evaluate(stampFrames);
    await page.locator(`.tab.is-provided[data-tab-id="${tabId}"]`).click();
    const base = pages.ticks.get(run)?.length ?? 0;
    await until(() => (pages.ticks.get(run)?.length ?? 0) >= base + counts.warmup);
    const cpuStart = cpuSeconds(served.pid);
    const wallStart = performance.now();
    await until(() => (pages.ticks.get(run)?.length ?? 0) >= base + counts.warmup + counts.changes);
    const cpu = (cpuSeconds(served.pid) - cpuStart) / ((performance.now() - wallStart) / 1000);
    const shown = await page.evaluate(() => window.__shown);
    await page.close();
    return { latencies: latencies(pages.ticks.get(run).slice(base), shown, counts.warmup), cpu };
  } finally {
    await mcp.close().catch(() => undefined);
    await served.stop();
  }
}

export async function runBrowserFramesBench({ quick = false, log = console.log } = {}) {
  const counts = quick ? COUNTS.quick : COUNTS.full;
  const root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'vmark-bench-frames-')));
  const pages = await startPages();
  const port = await freePort();
  const browser = await launchChromium([`--remote-debugging-port=${port}`]);
  try {
    log(
      `\n[frames] Chromium ${browser.version()}; page change → picture shown; ${counts.changes} changes, one every ${TICK_MS} ms`,
    );
    const peerLatencies = await peerRun(browser, pages, counts);
    const vmark = await vmarkRun(browser, pages, counts, root, {
      run: 'vmark',
      endpoint: `http://127.0.0.1:${port}`,
    });
    const apart = await vmarkRun(browser, pages, counts, root, { run: 'vmark-apart' });
    const v = summarize(vmark.latencies);
    const a = summarize(apart.latencies);
    const p = summarize(peerLatencies);
    const p95 = (values) => quantile(values, 0.95);
    log(
      table([
        ['', 'median', 'p95', 'n'],
        [
          'vmark: change → shown in the editor (one Chromium)',
          fmtMs(v.median),
          fmtMs(p95(vmark.latencies)),
          v.n,
        ],
        ['vmark, the AI tab in a Chromium of its own', fmtMs(a.median), fmtMs(p95(apart.latencies)), a.n],
        [`peer: ${PEER_NAME}`, fmtMs(p.median), fmtMs(p95(peerLatencies)), p.n],
        [
          'ratio (vmark / peer)',
          fmtRatio(ratio(v.median, p.median)),
          fmtRatio(ratio(p95(vmark.latencies), p95(peerLatencies))),
          '',
        ],
      ]),
    );
    log(
      `vmark serve CPU while one tab is shown: ${(vmark.cpu * 100).toFixed(1)} % of one core (${(apart.cpu * 100).toFixed(1)} % with its own Chromium); target median ≤ ${TARGET_MEDIAN_MS} ms (one Chromium): ${v.median <= TARGET_MEDIAN_MS ? 'met' : 'missed'}`,
    );
    return {
      peer: PEER_NAME,
      median_ms: round(v.median),
      p95_ms: round(p95(vmark.latencies)),
      peer_median_ms: round(p.median),
      peer_p95_ms: round(p95(peerLatencies)),
      ratio_median: round(ratio(v.median, p.median)),
      host_cpu_core_fraction: round(vmark.cpu),
      apart_median_ms: round(a.median),
      apart_p95_ms: round(p95(apart.latencies)),
      apart_host_cpu_core_fraction: round(apart.cpu),
      target_median_ms: TARGET_MEDIAN_MS,
      met: v.median <= TARGET_MEDIAN_MS,
    };
  } finally {
    await browser.close();
    pages.close();
    await fs.rm(root, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await runBrowserFramesBench({ quick: process.argv.includes('--quick') });
  console.log(`BENCH_JSON ${JSON.stringify(result)}`);
}
