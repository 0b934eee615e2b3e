#!/usr/bin/env node
/**
 * What each part of vmark's source-mode editor costs a keystroke at the end of the 10 MB note
 * (bench/README.md item 7's "10 MB: key → frame, source" row, split up): one Chromium, one page per
 * rung of bench/editor-parse-ladder-page.mjs (rung 0 = the editor benchmark's peer, each next rung
 * one part of vmark's view more, the last vmark's source mode without its host), the same
 * generated document in every page. The pages take turns in rounds (each round in another order,
 * the page in turn brought to the front), a block of keystrokes each, timed in the page as the
 * editor benchmark times them (keydown → the character in the DOM → the frame after it). Per rung:
 * the median over all its keystrokes and the median over the rounds of its block median over rung
 * 0's of the same round (both met that round's load).
 *
 *   node bench/editor-parse-ladder.mjs [--rounds N] [--keys N] [--rungs 0,2,8] [--size MB]
 *     [--vmark] [--baseline PATH/core/dist/bundle/main.js] [--settle] [--shape] [--profile DIR] [--trace DIR] [--keep]
 *     [--one-paragraph] [--reuse-bound]
 *
 * `--vmark` adds the built `vmark serve` page (the note open, Source mode; each keystroke waits for the
 * host's confirmation, as bench/editor-latency.mjs types), `--baseline` another build's. `--settle`
 * parses each note whole before typing; `--shape` prints each page's syntax tree reach and shape and
 * its JS heap after a full GC. The renderer's CPU per keystroke is read from /proc (Linux).
 *
 * The rungs bundle @lezer/markdown as it is published; vmark's page bundles it with ADR 109's reuse
 * bound (scripts/lezer-markdown-reuse.mjs), which `--reuse-bound` gives every rung too (rung 0 then
 * is no longer the editor benchmark's peer).
 *
 * `--one-paragraph` makes the note lines of prose with no blank line between them (one paragraph to
 * CommonMark, as a pasted log is) and types at the end of that paragraph instead of in a new one.
 *
 * `--profile DIR` writes, per rung, a CDP CPU profile of its page over one extra block of
 * keystrokes (DIR/page-N.cpuprofile; bench/cpuprofile-summary.mjs reads them); `--trace DIR` a
 * Chromium trace of the same (DIR/page-N.json; bench/trace-keystrokes.mjs reads them).
 */
/* global window, document */
import fs from 'node:fs/promises';
import { createServer } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'rolldown';
import { lezerMarkdownReuse } from '../scripts/lezer-markdown-reuse.mjs';
import { launchChromium, pageProbe, startServe } from './editor-latency.mjs';
import { markdownBody } from './markdown-fixture.mjs';
import { cpuSeconds } from './process-cpu.mjs';
import { fmtMs, fmtRatio, ratio, round, summarize, table } from './stats.mjs';

const REPO = fileURLToPath(new URL('..', import.meta.url));
const VIEWPORT = { width: 1280, height: 800 };
const END_LINE = 'The last line of the large document.';
/** What `--trace` records: the renderer's tasks, frames, input and script (DevTools' timeline). */
const TRACE_CATEGORIES = [
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'disabled-by-default-devtools.timeline.frame',
  'toplevel',
  'v8.execute',
  'input',
  'benchmark', // the main thread's frames (ProxyMain::BeginMainFrame)
].join(',');

function option(name, fallback) {
  const at = process.argv.indexOf(name);
  return at === -1 ? fallback : process.argv[at + 1];
}

/** Bundles the ladder page from vmark's sources, with the code languages module beside it. */
async function bundlePage(dir, minify) {
  await build({
    input: {
      ladder: path.join(REPO, 'bench', 'editor-parse-ladder-page.mjs'),
      // live/lazy.ts loads `./code-languages.js` beside the module that holds it.
      'code-languages': path.join(REPO, 'plugins', 'document', 'ui', 'live', 'code-languages.ts'),
    },
    platform: 'browser',
    logLevel: 'silent',
    plugins: process.argv.includes('--reuse-bound') ? [lezerMarkdownReuse] : [],
    resolve: { extensionAlias: { '.js': ['.ts', '.js'] } },
    output: { dir, format: 'esm', minify, entryFileNames: '[name].js', chunkFileNames: '[name].js' },
  });
  await fs.writeFile(
    path.join(dir, 'index.html'),
    '<!doctype html><meta charset="utf-8"><title>ladder</title>' +
      '<style>html,body{margin:0;height:100%}#editor{height:100vh}#editor .cm-editor{height:100%}</style>' +
      '<div id="editor"></div><script type="module" src="/ladder.js"></script>',
  );
}

function serve(dir) {
  const server = createServer(async (request, response) => {
    const name = new URL(request.url ?? '/', 'http://x').pathname.slice(1) || 'index.html';
    const file = path.join(dir, path.basename(name));
    const type = name.endsWith('.js')
      ? 'text/javascript'
      : name.endsWith('.md')
        ? 'text/markdown'
        : 'text/html';
    try {
      const body = await fs.readFile(file);
      response.writeHead(200, { 'content-type': `${type}; charset=utf-8`, 'cache-control': 'no-store' });
      response.end(body);
    } catch {
      response.writeHead(404).end();
    }
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ url: `http://127.0.0.1:${server.address().port}/`, close: () => server.close() }),
    ),
  );
}

const ONE_PARAGRAPH = process.argv.includes('--one-paragraph');

/** Lines of prose, `bytes` long, with no blank line between them: one paragraph. */
function oneParagraph(bytes) {
  const lines = [];
  for (let size = 0, i = 0; size < bytes; i++) {
    const line = `Line ${i}: some *words*, a [link](https://example.com/${i}) and more words to make it wide`;
    lines.push(line);
    size += line.length + 1;
  }
  return lines.join('\n');
}

/** Waits for the note's last line, scrolled to the end, and starts a paragraph of typing there. */
async function readyAtEnd(page, tag) {
  await page.evaluate(
    ([first, last]) => window.__bench.scrollToEnd(first, last),
    ['# The 10 MB document', END_LINE],
  );
  await page.locator('.cm-content').focus();
  await page.keyboard.press('Control+End');
  const text = `Typed in ${tag}: `;
  await page.keyboard.type(`${ONE_PARAGRAPH ? ' ' : '\n\n'}${text}`);
  return { page, typed: { text }, confirm: false };
}

/** Chromium's renderer processes now (one per page here: every page has a context of its own). */
async function rendererPids() {
  const pids = new Set();
  for (const entry of await fs.readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const args = await fs.readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => '');
    if (args.includes('--type=renderer') && !args.includes('--top-chrome-webui')) pids.add(Number(entry));
  }
  return pids;
}

/** A page with the probe, and the renderer process that runs it (null if it cannot be told). */
async function newPage(browser, url) {
  const before = await rendererPids();
  const page = await browser.newPage({ viewport: VIEWPORT });
  await page.addInitScript(pageProbe);
  await page.goto(url);
  const added = [...(await rendererPids())].filter((pid) => !before.has(pid));
  page.rendererPid = added.length === 1 ? added[0] : null;
  return page;
}

/** Opens rung `index` on the document. */
async function openRung(browser, url, index) {
  const page = await newPage(browser, url);
  await page.waitForFunction(() => window.ladder !== undefined);
  await page.evaluate((i) => window.ladder.load('/huge.md', i), index);
  if (process.argv.includes('--settle')) await page.evaluate(() => window.ladder.settle());
  return readyAtEnd(page, `rung ${index}`);
}

/**
 * vmark's own page (`vmark serve` of the built CLI `cli`, the note open, Source mode): typed into as
 * the editor benchmark types, each keystroke waiting for the host's confirmation of the one before.
 */
async function openVmark(browser, cli, root, name) {
  const workspace = path.join(root, `ws-${name}`);
  const home = path.join(root, `home-${name}`);
  await fs.mkdir(workspace, { recursive: true });
  await fs.mkdir(home, { recursive: true });
  await fs.copyFile(path.join(root, 'huge.md'), path.join(workspace, 'huge.md'));
  const served = await startServe(workspace, home, { open: 'huge.md', cli });
  const page = await newPage(browser, served.url);
  await page.locator('.cm-content').waitFor();
  await page.click('.mode-switch [data-mode=source]');
  if (process.argv.includes('--settle'))
    await page.evaluate(async () => {
      // The page's one @codemirror/language, through its import map.
      const { forceParsing, syntaxTreeAvailable } = await import('@codemirror/language');
      const view = document.querySelector('.cm-content').cmTile.root.view;
      while (!syntaxTreeAvailable(view.state, view.state.doc.length)) {
        forceParsing(view, view.state.doc.length, 200);
        await new Promise((resolve) => setTimeout(resolve, 0));
      }
    });
  const target = await readyAtEnd(page, name);
  return { ...target, confirm: true, stop: served.stop };
}

/** `count` keystrokes at the end of the target's note: keydown → DOM and → frame, each. */
async function typeBlock({ page, typed, confirm }, count) {
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  const samples = { dom: [], frame: [], cpu: Number.NaN };
  const pid = page.rendererPid;
  const cpuBefore = pid === null ? Number.NaN : cpuSeconds(pid) * 1000;
  for (let i = 0; i < count; i++) {
    const letter = letters[typed.text.length % letters.length];
    typed.text += letter;
    await page.evaluate((text) => window.__bench.arm(text), typed.text);
    await page.keyboard.press(letter);
    const shown = await page.evaluate(() => window.__bench.pending);
    const key = await page.evaluate(() => window.__bench.lastKey);
    if (confirm && (await page.evaluate((since) => window.__bench.confirmedAfter(since), key)) === null)
      throw new Error('vmark: a keystroke was not confirmed by the host');
    samples.dom.push(shown.dom - key);
    samples.frame.push(shown.frame - key);
  }
  if (pid !== null) samples.cpu = (cpuSeconds(pid) * 1000 - cpuBefore) / count;
  return samples;
}

/**
 * The shape of the page's syntax tree (found through the editor's DOM, so any CodeMirror page
 * answers): how far it is parsed, the top node's own children, the blocks under it (through the
 * anonymous nodes that balance it) and how deep those anonymous nodes nest.
 */
function treeShape() {
  const view = document.querySelector('.cm-content').cmTile.root.view;
  const language = view.state.values.find((v) => v && typeof v === 'object' && 'context' in v && 'tree' in v);
  const tree = language.tree;
  let blocks = 0;
  let anonymous = 0;
  let depth = 0;
  const walk = (node, level) => {
    depth = Math.max(depth, level);
    for (const child of node.children) {
      if (child.type && child.type.isAnonymous && child.children) {
        anonymous++;
        walk(child, level + 1);
      } else blocks++;
    }
  };
  walk(tree, 0);
  return {
    parsed: tree.length,
    length: view.state.doc.length,
    top: tree.children.length,
    blocks,
    anonymous,
    depth,
    heapMB: Math.round(performance.memory.usedJSHeapSize / 1048576),
  };
}

async function main() {
  const rounds = Number(option('--rounds', '4'));
  const keys = Number(option('--keys', '15'));
  const megabytes = Number(option('--size', '10'));
  const profileDir = option('--profile', null);
  const traceDir = option('--trace', null);
  const vmarkCli = process.argv.includes('--vmark')
    ? path.join(REPO, 'core', 'dist', 'bundle', 'main.js')
    : null;
  const baselineCli = option('--baseline', null);
  const keep = process.argv.includes('--keep');
  const root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'vmark-bench-ladder-')));
  const bytes = megabytes * 1024 * 1024;
  const body = ONE_PARAGRAPH ? oneParagraph(bytes - 200) : markdownBody(bytes - 200, 10240);
  await fs.writeFile(path.join(root, 'huge.md'), `# The 10 MB document\n\n${body}\n${END_LINE}\n`);
  await bundlePage(root, profileDir === null);
  const server = await serve(root);
  // No spare renderer: each new page's process is the one that appears when it opens.
  const browser = await launchChromium(['--disable-features=SpareRendererForSitePerProcess']);
  const targets = [];
  try {
    const probe = await browser.newPage();
    await probe.goto(server.url);
    await probe.waitForFunction(() => window.ladder !== undefined);
    const names = await probe.evaluate(() => window.ladder.rungs);
    await probe.close();
    const chosen = option('--rungs', null)?.split(',').map(Number) ?? names.map((_, i) => i);
    if (!chosen.includes(0)) chosen.unshift(0);
    console.log(`[ladder] Chromium ${browser.version()}; ${megabytes} MB note; rungs ${chosen.join(', ')}`);
    for (const index of chosen)
      targets.push({ label: `${index}. ${names[index]}`, ...(await openRung(browser, server.url, index)) });
    if (vmarkCli !== null)
      targets.push({
        label: 'vmark serve, source mode (this build)',
        ...(await openVmark(browser, vmarkCli, root, 'vmark')),
      });
    if (baselineCli !== null)
      targets.push({
        label: `vmark serve, source mode (${baselineCli})`,
        ...(await openVmark(browser, path.resolve(baselineCli), root, 'baseline')),
      });
    console.log(
      `  ${rounds} rounds × ${keys} keystrokes per page (after ${keys} untimed), load ${os.loadavg()[0].toFixed(2)}`,
    );
    // One untimed block each: the first keystrokes after the open pay for its leftovers.
    for (const target of targets) {
      await target.page.bringToFront();
      await typeBlock(target, keys);
    }
    for (const target of targets)
      Object.assign(target, { dom: [], frame: [], cpu: [], perRound: [], cpuPerRound: [] });
    for (let r = 0; r < rounds; r++) {
      // Each round in another order, so that no page always follows the same one.
      const order = targets.map((_, i) => targets[(i + r) % targets.length]);
      if (r % 2 === 1) order.reverse();
      for (const target of order) {
        await target.page.bringToFront();
        const samples = await typeBlock(target, keys);
        target.dom.push(...samples.dom);
        target.frame.push(...samples.frame);
        target.cpu.push(samples.cpu);
        target.roundMedian = summarize(samples.frame).median;
        target.roundCpu = samples.cpu;
      }
      for (const target of targets) {
        target.perRound.push(ratio(target.roundMedian, targets[0].roundMedian));
        target.cpuPerRound.push(ratio(target.roundCpu, targets[0].roundCpu));
      }
    }
    const rows = [
      [
        'page',
        'key → DOM',
        'key → frame',
        'p90 frame',
        '× rung 0 (per round)',
        'CPU / key',
        '× rung 0 (per round)',
      ],
    ];
    const summary = [];
    for (const target of targets) {
      const dom = summarize(target.dom);
      const frame = summarize(target.frame);
      const toPeer = summarize(target.perRound).median;
      const cpu = summarize(target.cpu).median;
      const cpuToPeer = summarize(target.cpuPerRound).median;
      rows.push([
        target.label,
        fmtMs(dom.median),
        fmtMs(frame.median),
        fmtMs(frame.p90),
        fmtRatio(toPeer),
        fmtMs(cpu),
        fmtRatio(cpuToPeer),
      ]);
      summary.push({
        page: target.label,
        dom: round(dom.median),
        frame: round(frame.median),
        p90: round(frame.p90),
        ratio_per_round: round(toPeer),
        cpu_per_key: round(cpu),
        cpu_ratio_per_round: round(cpuToPeer),
      });
    }
    console.log('');
    console.log(table(rows));
    console.log(`  load after: ${os.loadavg()[0].toFixed(2)}`);
    if (process.argv.includes('--shape'))
      for (const target of targets) {
        // After a full GC, so that the heap figure is what the page keeps, not what it has yet to collect.
        const cdp = await target.page.context().newCDPSession(target.page);
        await cdp.send('HeapProfiler.collectGarbage');
        await cdp.detach();
        console.log(`  ${target.label}: ${JSON.stringify(await target.page.evaluate(treeShape))}`);
      }
    if (traceDir !== null) {
      await fs.mkdir(traceDir, { recursive: true });
      for (const [i, target] of targets.entries()) {
        await target.page.bringToFront();
        const cdp = await target.page.context().newCDPSession(target.page);
        const events = [];
        cdp.on('Tracing.dataCollected', (data) => events.push(...data.value));
        const complete = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
        await cdp.send('Tracing.start', { categories: TRACE_CATEGORIES, transferMode: 'ReportEvents' });
        await typeBlock(target, keys);
        await cdp.send('Tracing.end');
        await complete;
        await fs.writeFile(path.join(traceDir, `page-${i}.json`), JSON.stringify(events));
      }
      console.log(
        `  traces in ${traceDir} (page-N: the table's row N, from 0; bench/trace-keystrokes.mjs reads them)`,
      );
    }
    if (profileDir !== null) {
      await fs.mkdir(profileDir, { recursive: true });
      for (const [i, target] of targets.entries()) {
        await target.page.bringToFront();
        const cdp = await target.page.context().newCDPSession(target.page);
        await cdp.send('Profiler.enable');
        await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
        await cdp.send('Profiler.start');
        await typeBlock(target, keys);
        const { profile } = await cdp.send('Profiler.stop');
        await fs.writeFile(path.join(profileDir, `page-${i}.cpuprofile`), JSON.stringify(profile));
      }
      console.log(`  profiles in ${profileDir} (page-N: the table's row N, from 0)`);
    }
    console.log(
      `\nBENCH_JSON ${JSON.stringify({ editor_parse_ladder: { megabytes, rounds, keys, pages: summary } })}`,
    );
  } finally {
    await browser.close();
    server.close();
    for (const target of targets) await target.stop?.();
    if (!keep) await fs.rm(root, { recursive: true, force: true });
  }
}

main().catch((error) => {
  process.stderr.write(
    `ladder: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
