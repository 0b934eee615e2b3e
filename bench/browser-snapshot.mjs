#!/usr/bin/env node
/**
 * `browser_read read` against Playwright's AI snapshot (`page.ariaSnapshot({mode: 'ai'})`, the
 * peer), on the readability corpus pages (../shared/corpora/readability/<case>/source.html)
 * served on 127.0.0.1 — the same pages, the same run, the same Chromium (one browser, one page
 * per case: both read the same loaded document, taking turns, each going first on every other
 * page). vmark's read is the built plugin's perception (plugins/browser/dist), called
 * in-process as the tool calls it, and measured as the tool's answer is: the result
 * pretty-printed as the output bound prints it. Per page:
 *
 *   - bytes of each answer, and the ratio;
 *   - refs handed out;
 *   - time: the first read of the page (the usual case: read once, then act), the median
 *     of the repeats (vmark answers an unchanged page from its last read, ADR 41), and the
 *     median of reads each just after a DOM change (an attribute set on <html>), which vmark
 *     must read afresh;
 *   - coverage: of the rendered `a, button, input, select, textarea, [role=button], [tabindex]`
 *     of the main document (open shadow roots included), the share that got a ref — for vmark
 *     through its isolated world's refs, for the peer through its `aria-ref=` locators.
 *
 * Then the memory of the browser processes with 8 tabs open: vmark's own Chromium under the
 * built CLI (`vmark mcp`, 8 × `browser open`), against Playwright's Chromium with the same 8
 * pages, as the sums of RSS and PSS (/proc/<pid>/smaps_rollup) over each process tree.
 *
 *   node bench/browser-snapshot.mjs [--quick] [--runs N] [--pages a,b] [--no-peer-coverage] [--no-rss]
 *
 * Environment: BENCH_QUICK=1, VMARK_CHROMIUM. The last line is `BENCH_JSON {...}`. Exits 1 only
 * when it could not measure (a read failed), never for slowness.
 */
/* global document */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import { createServer } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { callTool, connectStdio } from './mcp-stdio.mjs';
import { fmtBytes, fmtMs, fmtRatio, quantile, ratio, round, table } from './stats.mjs';

const REPO = fileURLToPath(new URL('..', import.meta.url));
const VMARK_CLI = path.join(REPO, 'core', 'dist', 'bundle', 'main.js');
const PERCEPTION = new URL('../plugins/browser/dist/perception/', import.meta.url);
const CORPUS = fileURLToPath(new URL('../../shared/corpora/readability/', import.meta.url));
const PEER_NAME = "Playwright page.ariaSnapshot({mode: 'ai'})";
const CONTROLS = 'a, button, input, select, textarea, [role=button], [tabindex]';
const TARGETS = { bytes: 0.5, time: 1.0, coverage: 1.0 };
const TABS = 8;
/** Reads of each page just after a DOM change, per reader. */
const CHANGED_RUNS = 3;

function chromiumPath() {
  const chosen = process.env.VMARK_CHROMIUM;
  if (chosen) return chosen;
  if (existsSync('/usr/bin/chromium')) return '/usr/bin/chromium';
  return chromium.executablePath();
}

/** The corpus pages, and a server for them on 127.0.0.1 (anything else it is asked for: 404). */
async function serveCorpus() {
  const cases = readdirSync(CORPUS)
    .filter((name) => existsSync(path.join(CORPUS, name, 'source.html')))
    .sort();
  const server = createServer((request, response) => {
    const match = /^\/([\w.-]+)\/source\.html$/.exec(request.url ?? '');
    if (!match || !cases.includes(match[1])) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(readFileSync(path.join(CORPUS, match[1], 'source.html')));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${server.address().port}`;
  return { cases, origin, close: () => new Promise((resolve) => server.close(resolve)) };
}

/**
 * Coverage in vmark's isolated world: the rendered controls of the main document (and its open
 * shadow roots) whose element holds one of the snapshot's refs. Runs where the refs live.
 */
function vmarkCoverage({ selector, generation, refs }) {
  const wanted = new Set(refs);
  const roots = [document];
  for (let i = 0; i < roots.length; i++)
    for (const element of roots[i].querySelectorAll('*'))
      if (element.shadowRoot) roots.push(element.shadowRoot);
  let total = 0;
  let covered = 0;
  const missed = [];
  for (const root of roots) {
    for (const element of root.querySelectorAll(selector)) {
      const box = element.getBoundingClientRect();
      if (box.width <= 0 || box.height <= 0 || !element.checkVisibility({ visibilityProperty: true }))
        continue;
      total++;
      const ref = globalThis.__vmark.refs.refOf(generation, element);
      if (ref !== undefined && wanted.has(ref)) covered++;
      else if (missed.length < 5) missed.push(element.outerHTML.slice(0, 120));
    }
  }
  return { total, covered, missed };
}

/** The same count in the page's world, for the peer: elements its `aria-ref` locators marked. */
function peerCoverage([selector, mark]) {
  const roots = [document];
  for (let i = 0; i < roots.length; i++)
    for (const element of roots[i].querySelectorAll('*'))
      if (element.shadowRoot) roots.push(element.shadowRoot);
  let total = 0;
  let covered = 0;
  for (const root of roots) {
    for (const element of root.querySelectorAll(selector)) {
      const box = element.getBoundingClientRect();
      if (box.width <= 0 || box.height <= 0 || !element.checkVisibility({ visibilityProperty: true }))
        continue;
      total++;
      if (element.hasAttribute(mark)) covered++;
    }
  }
  return { total, covered };
}

async function measurePages(options, corpus) {
  const { IsolatedWorld } = await import(new URL('isolated-world.js', PERCEPTION).href);
  const { PagePerception } = await import(new URL('page-perception.js', PERCEPTION).href);
  const browser = await chromium.launch({
    executablePath: chromiumPath(),
    args: ['--no-sandbox', '--disable-gpu'],
  });
  const pages = [];
  try {
    const context = await browser.newContext();
    // The corpus pages link to the whole web; only their own documents load.
    await context.route('**/*', (route) =>
      route.request().url().startsWith(`${corpus.origin}/`)
        ? route.continue()
        : route.abort('blockedbyclient'),
    );
    let generation = 0;
    for (const [index, name] of options.pages.entries()) {
      const page = await context.newPage();
      const world = new IsolatedWorld(page);
      const perception = new PagePerception(page, world, () => generation);
      await page.goto(`${corpus.origin}/${name}/source.html`, { waitUntil: 'load', timeout: 60_000 });
      generation++;
      const url = page.url();
      const ours = [];
      const peer = [];
      let ourResult;
      let peerYaml;
      for (let run = 0; run < options.runs; run++) {
        const oursFirst = (index + run) % 2 === 0;
        for (const who of oursFirst ? ['ours', 'peer'] : ['peer', 'ours']) {
          const started = performance.now();
          if (who === 'ours') ourResult = await perception.read(url);
          else peerYaml = await page.ariaSnapshot({ mode: 'ai', timeout: 0 });
          (who === 'ours' ? ours : peer).push(performance.now() - started);
        }
      }
      const oursChanged = [];
      const peerChanged = [];
      for (let run = 0; run < CHANGED_RUNS; run++) {
        const oursFirst = (index + run) % 2 === 0;
        for (const who of oursFirst ? ['ours', 'peer'] : ['peer', 'ours']) {
          await page.evaluate(
            (n) => document.documentElement.setAttribute('data-bench-change', String(n)),
            run,
          );
          const started = performance.now();
          if (who === 'ours') ourResult = await perception.read(url);
          else peerYaml = await page.ariaSnapshot({ mode: 'ai', timeout: 0 });
          (who === 'ours' ? oursChanged : peerChanged).push(performance.now() - started);
        }
      }
      const text = JSON.stringify(ourResult, null, 2);
      const refs = ourResult.snapshot.filter((entry) => entry.ref !== undefined).map((entry) => entry.ref);
      const frameId = await world.mainFrameId();
      const coverage = await world.evaluate(
        vmarkCoverage.toString(),
        { selector: CONTROLS, generation, refs },
        frameId,
      );
      let peerCovered = null;
      if (options.peerCoverage) {
        const mark = 'data-bench-peer-ref';
        const peerRefs = [...peerYaml.matchAll(/\[ref=(e\d+)\]/g)].map((m) => m[1]);
        for (const ref of peerRefs) {
          await page
            .locator(`aria-ref=${ref}`)
            .evaluate((element, attribute) => element.setAttribute(attribute, ''), mark, { timeout: 2000 })
            .catch(() => undefined);
        }
        peerCovered = await page.evaluate(peerCoverage, [CONTROLS, mark]);
      }
      await page.close();
      const row = {
        name,
        bytes: { ours: Buffer.byteLength(text), peer: Buffer.byteLength(peerYaml) },
        refs: { ours: refs.length, peer: (peerYaml.match(/\[ref=/g) ?? []).length },
        entries: ourResult.snapshot.length,
        truncated: ourResult.truncated === true,
        ms: {
          ours_first: ours[0],
          peer_first: peer[0],
          ours_median: quantile(ours, 0.5),
          peer_median: quantile(peer, 0.5),
          ours_changed: quantile(oursChanged, 0.5),
          peer_changed: quantile(peerChanged, 0.5),
        },
        coverage: {
          total: coverage.total,
          ours: coverage.covered,
          peer: peerCovered?.covered ?? null,
          missed: coverage.missed,
        },
      };
      pages.push(row);
      log(
        `  ${name.padEnd(28)} bytes ${String(row.bytes.ours).padStart(6)} / ${String(row.bytes.peer).padStart(6)}` +
          `  ms ${fmtMs(row.ms.ours_median).padStart(8)} / ${fmtMs(row.ms.peer_median).padStart(8)}` +
          `  changed ${fmtMs(row.ms.ours_changed).padStart(8)} / ${fmtMs(row.ms.peer_changed).padStart(8)}` +
          `  coverage ${coverage.covered}/${coverage.total}` +
          (peerCovered ? ` (peer ${peerCovered.covered}/${peerCovered.total})` : ''),
      );
    }
  } finally {
    await browser.close();
  }
  return pages;
}

// ---------------------------------------------------------------------------------------------
// Memory with 8 tabs

/** Every descendant of `pid` (from /proc), with its RSS and PSS in bytes. */
async function processTree(pid) {
  const parents = new Map();
  for (const entry of await fs.readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await fs.readFile(`/proc/${entry}/stat`, 'utf8').catch(() => null);
    if (stat === null) continue;
    // Field 4, after the parenthesized command (which may hold spaces).
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    parents.set(Number(entry), ppid);
  }
  const tree = new Set([pid]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const [child, parent] of parents) {
      if (!tree.has(child) && tree.has(parent)) {
        tree.add(child);
        grew = true;
      }
    }
  }
  let rss = 0;
  let pss = 0;
  let count = 0;
  for (const member of tree) {
    const comm = await fs.readFile(`/proc/${member}/comm`, 'utf8').catch(() => '');
    if (!/chrom/i.test(comm)) continue;
    const rollup = await fs.readFile(`/proc/${member}/smaps_rollup`, 'utf8').catch(() => '');
    const kb = (key) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(rollup)?.[1] ?? 0) * 1024;
    rss += kb('Rss');
    pss += kb('Pss');
    count++;
  }
  return { processes: count, rss, pss };
}

async function measureMemory(options, corpus) {
  const chosen = options.pages.slice(0, TABS);
  while (chosen.length < TABS) chosen.push(options.pages[chosen.length % options.pages.length]);
  const urls = chosen.map((name) => `${corpus.origin}/${name}/source.html`);
  // vmark's guard resolves names itself: the corpus gets a name of its own, every other name an
  // address the guard refuses at once (the pages link to the whole web; nothing else loads).
  const port = new URL(corpus.origin).port;
  const named = chosen.map((name) => `http://corpus.test:${port}/${name}/source.html`);

  // The peer: Playwright's Chromium, the same flags vmark launches with where they matter.
  const browser = await chromium.launch({
    executablePath: chromiumPath(),
    args: ['--no-sandbox', '--disable-gpu'],
  });
  let peer;
  try {
    const context = await browser.newContext();
    for (const url of urls) await (await context.newPage()).goto(url, { waitUntil: 'load', timeout: 60_000 });
    peer = await processTree(process.pid);
  } finally {
    await browser.close();
  }

  const home = await fs.mkdtemp(path.join(os.tmpdir(), 'vmark-bench-browser-'));
  const server = await connectStdio({
    name: 'vmark',
    command: process.execPath,
    args: [VMARK_CLI, 'mcp'],
    env: {
      VMARK_HOME: home,
      VMARK_BROWSER_ALLOW_PRIVATE: '1',
      VMARK_BROWSER_HOST_RULES: 'MAP corpus.test 127.0.0.1, MAP * 0.0.0.0',
    },
  });
  let ours;
  try {
    for (const url of named) await callTool(server, 'browser', { action: 'open', url });
    ours = await processTree(server.pid);
  } finally {
    await server.close();
    await fs.rm(home, { recursive: true, force: true });
  }
  return { tabs: TABS, ours, peer };
}

// ---------------------------------------------------------------------------------------------

let log = (line) => process.stdout.write(`${line}\n`);

export async function runBrowserSnapshotBench(settings = {}) {
  if (settings.log) log = settings.log;
  if (!existsSync(new URL('page-perception.js', PERCEPTION))) {
    throw new Error('plugins/browser/dist is missing: run `npm run build` first');
  }
  const corpus = await serveCorpus();
  const options = {
    runs: settings.runs ?? (settings.quick ? 3 : 5),
    pages: settings.pages ?? corpus.cases,
    peerCoverage: settings.peerCoverage ?? true,
    rss: settings.rss ?? true,
  };
  try {
    log(
      `\n[browser read] ${options.pages.length} corpus pages × ${options.runs} reads each, vmark vs ${PEER_NAME}`,
    );
    log(
      '  page                         bytes vmark / peer      ms vmark / peer (median)   after a change   coverage',
    );
    const pages = await measurePages(options, corpus);
    const memory = options.rss ? await measureMemory(options, corpus) : null;
    const summary = summarizePages(pages, memory);
    report(summary);
    return summary;
  } finally {
    await corpus.close();
  }
}

function summarizePages(pages, memory) {
  const byteRatios = pages.map((p) => ratio(p.bytes.ours, p.bytes.peer));
  const firstRatios = pages.map((p) => ratio(p.ms.ours_first, p.ms.peer_first));
  const medianRatios = pages.map((p) => ratio(p.ms.ours_median, p.ms.peer_median));
  const changedRatios = pages.map((p) => ratio(p.ms.ours_changed, p.ms.peer_changed));
  const total = pages.reduce((n, p) => n + p.coverage.total, 0);
  const covered = pages.reduce((n, p) => n + p.coverage.ours, 0);
  const peerCovered = pages.every((p) => p.coverage.peer !== null)
    ? pages.reduce((n, p) => n + p.coverage.peer, 0)
    : null;
  const sum = (pick) => pages.reduce((n, p) => n + pick(p), 0);
  const geomean = (values) => Math.exp(values.reduce((n, v) => n + Math.log(v), 0) / values.length);
  return {
    pages: pages.length,
    bytes: {
      ours_total: sum((p) => p.bytes.ours),
      peer_total: sum((p) => p.bytes.peer),
      ratio_mean: round(byteRatios.reduce((a, b) => a + b, 0) / byteRatios.length),
      ratio_median: round(quantile(byteRatios, 0.5)),
      ratio_max: round(Math.max(...byteRatios)),
    },
    refs: { ours_total: sum((p) => p.refs.ours), peer_total: sum((p) => p.refs.peer) },
    time: {
      ours_median_ms: round(
        quantile(
          pages.map((p) => p.ms.ours_median),
          0.5,
        ),
      ),
      peer_median_ms: round(
        quantile(
          pages.map((p) => p.ms.peer_median),
          0.5,
        ),
      ),
      ratio_median: round(quantile(medianRatios, 0.5)),
      ratio_geomean: round(geomean(medianRatios)),
      first_ratio_median: round(quantile(firstRatios, 0.5)),
      changed_ratio_median: round(quantile(changedRatios, 0.5)),
      changed_ratio_geomean: round(geomean(changedRatios)),
      ours_total_ms: round(sum((p) => p.ms.ours_median)),
      peer_total_ms: round(sum((p) => p.ms.peer_median)),
    },
    coverage: {
      total,
      ours: covered,
      ours_share: round(total === 0 ? 1 : covered / total, 4),
      peer: peerCovered,
      peer_share: peerCovered === null ? null : round(total === 0 ? 1 : peerCovered / total, 4),
      missed: pages
        .filter((p) => p.coverage.ours < p.coverage.total)
        .map((p) => ({ page: p.name, missed: p.coverage.missed })),
    },
    truncated_pages: pages.filter((p) => p.truncated).map((p) => p.name),
    memory,
    targets: {
      bytes: {
        target: TARGETS.bytes,
        median: round(quantile(byteRatios, 0.5)),
        met: quantile(byteRatios, 0.5) <= TARGETS.bytes,
      },
      time: {
        target: TARGETS.time,
        median: round(quantile(medianRatios, 0.5)),
        met: quantile(medianRatios, 0.5) <= TARGETS.time,
      },
      first_read_time: {
        target: TARGETS.time,
        median: round(quantile(firstRatios, 0.5)),
        met: quantile(firstRatios, 0.5) <= TARGETS.time,
      },
      coverage: {
        target: TARGETS.coverage,
        share: round(total === 0 ? 1 : covered / total, 4),
        met: covered === total,
      },
    },
    per_page: pages.map((p) => ({
      ...p,
      ms: Object.fromEntries(Object.entries(p.ms).map(([k, v]) => [k, round(v)])),
    })),
  };
}

function report(summary) {
  const s = summary;
  log(
    table([
      ['browser read, 43 corpus pages', 'vmark', 'peer', 'ratio'],
      [
        'bytes (sum)',
        fmtBytes(s.bytes.ours_total),
        fmtBytes(s.bytes.peer_total),
        fmtRatio(ratio(s.bytes.ours_total, s.bytes.peer_total)),
      ],
      [
        'bytes ratio per page: median / mean / max',
        '',
        '',
        `${fmtRatio(s.bytes.ratio_median)} / ${fmtRatio(s.bytes.ratio_mean)} / ${fmtRatio(s.bytes.ratio_max)}`,
      ],
      [
        'refs (sum)',
        s.refs.ours_total,
        s.refs.peer_total,
        fmtRatio(ratio(s.refs.ours_total, s.refs.peer_total)),
      ],
      [
        'time per page (median of medians)',
        fmtMs(s.time.ours_median_ms),
        fmtMs(s.time.peer_median_ms),
        fmtRatio(s.time.ratio_median),
      ],
      [
        'time ratio per page: median / geomean / first read',
        '',
        '',
        `${fmtRatio(s.time.ratio_median)} / ${fmtRatio(s.time.ratio_geomean)} / ${fmtRatio(s.time.first_ratio_median)}`,
      ],
      [
        'time ratio, read just after a DOM change: median / geomean',
        '',
        '',
        `${fmtRatio(s.time.changed_ratio_median)} / ${fmtRatio(s.time.changed_ratio_geomean)}`,
      ],
      [
        'coverage of rendered controls',
        `${s.coverage.ours}/${s.coverage.total}`,
        s.coverage.peer === null ? '—' : `${s.coverage.peer}/${s.coverage.total}`,
        '',
      ],
      ...(s.memory
        ? [
            [
              `browser RSS, ${s.memory.tabs} tabs (${s.memory.ours.processes} / ${s.memory.peer.processes} processes)`,
              fmtBytes(s.memory.ours.rss),
              fmtBytes(s.memory.peer.rss),
              fmtRatio(ratio(s.memory.ours.rss, s.memory.peer.rss)),
            ],
            [
              `browser PSS, ${s.memory.tabs} tabs`,
              fmtBytes(s.memory.ours.pss),
              fmtBytes(s.memory.peer.pss),
              fmtRatio(ratio(s.memory.ours.pss, s.memory.peer.pss)),
            ],
          ]
        : []),
    ]),
  );
  for (const [name, t] of Object.entries(s.targets)) {
    log(`target ${name}: ${t.met ? 'met' : 'NOT met'} (${t.median ?? t.share} vs ${t.target})`);
  }
  if (s.truncated_pages.length > 0) log(`truncated snapshots: ${s.truncated_pages.join(', ')}`);
  for (const miss of s.coverage.missed) log(`missed on ${miss.page}: ${miss.missed.join(' | ')}`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: {
      quick: { type: 'boolean' },
      runs: { type: 'string' },
      pages: { type: 'string' },
      'no-peer-coverage': { type: 'boolean' },
      'no-rss': { type: 'boolean' },
    },
  });
  const summary = await runBrowserSnapshotBench({
    quick: values.quick ?? process.env.BENCH_QUICK === '1',
    runs: values.runs ? Number(values.runs) : undefined,
    pages: values.pages ? values.pages.split(',') : undefined,
    peerCoverage: !values['no-peer-coverage'],
    rss: !values['no-rss'],
  });
  console.log(`BENCH_JSON ${JSON.stringify(summary)}`);
}
