#!/usr/bin/env node
/**
 * "Find the sign-up link on a page and click it", scripted the way an AI client does it, on ten
 * corpus pages that have such a link (../shared/corpora/, served on 127.0.0.1 with a small
 * landing page for the link's target), against Playwright MCP (`@playwright/mcp`, the peer) in
 * the same run and the same Chromium (/usr/bin/chromium or VMARK_CHROMIUM). Both are real MCP
 * servers over stdio, driven by the real SDK Client:
 *
 *   peer:  browser_navigate {url} → browser_snapshot → browser_click {target: ref}
 *   vmark: browser open {url} → browser_read read → browser act {operation: click, role, name}
 *
 * On both sides the script picks its target from the response's text alone, as a model would: the
 * first link or button whose name matches TARGET_NAME. vmark's click is approved through the
 * approval path a client sees: the client declares MCP elicitation and accepts each prompt (as
 * its person would); a standing grant is never given. Measured per page: the tokens the model
 * reads (bytes of every tool-call response on the wire / 4), the round trips (tool calls), the
 * approval prompts (shown to the person, not to the model: counted apart), and whether the click
 * landed (the landing page was requested as a document), and the wall time of the load call
 * (browser_navigate / browser open) and of the click call (browser_click / browser act) as the
 * client sees it — vmark's act includes its approval prompt, answered at once by the client.
 * Tool definitions (tools/list) are read once per session by a client and are printed apart, not
 * in the per-page figures.
 *
 *   node bench/browser-act.mjs [--pages a,b]
 *
 * The last line is `BENCH_JSON {...}`. Exits 1 only when it could not measure (a call failed, a
 * target was not found, a click did not land), never for the figures.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { connectStdio } from './mcp-stdio.mjs';
import { fmtBytes, fmtMs, fmtRatio, quantile, ratio, round, table } from './stats.mjs';

const REPO = fileURLToPath(new URL('..', import.meta.url));
const VMARK_CLI = path.join(REPO, 'core', 'dist', 'bundle', 'main.js');
const PEER_CLI = path.join(REPO, 'node_modules', '@playwright', 'mcp', 'cli.js');
const CORPORA = fileURLToPath(new URL('../../shared/corpora/', import.meta.url));
const PEER_NAME = '@playwright/mcp (browser_navigate → browser_snapshot → browser_click)';
const TARGET = { tokens: 0.5 };
/** The link a person asked for, as a model would recognize it in a page's text. */
export const TARGET_NAME = /\b(sign ?up|register|create (an )?account)\b/i;
const BYTES_PER_TOKEN = 4;

/**
 * The pages, each with a sign-up link whose target the landing page answers. `site`: the page's
 * own origin, whose absolute links are served root-relative (as if the page were served from
 * there), so that its sign-up link lands here and not on the unreachable web; only the peer's
 * snapshot shows link URLs, so this makes the peer's answer shorter, never vmark's.
 */
export const PAGES = [
  { name: 'lwn-1', file: 'readability/lwn-1/source.html' },
  { name: 'keep-tabular-data', file: 'readability/keep-tabular-data/source.html' },
  { name: 'mozilla-1', file: 'readability/mozilla-1/source.html' },
  { name: 'wikipedia', file: 'readability/wikipedia/source.html' },
  { name: 'ars-1', file: 'readability/ars-1/source.html', site: 'https://arstechnica.com' },
  { name: 'engadget', file: 'readability/engadget/source.html', site: 'https://www.engadget.com' },
  { name: 'aclu', file: 'readability/aclu/source.html', site: 'https://www.aclu.org' },
  { name: 'medium-1', file: 'readability/medium-1/source.html', site: 'https://medium.com' },
  { name: 'github-issue', file: 'defuddle/fixtures/general--github.com-issue-56.html' },
  { name: 'wikipedia-obsidian', file: 'defuddle/fixtures/general--wikipedia.html' },
];

const LANDING = '<!doctype html><title>Create your account</title><h1>Create your account</h1>';

let log = (line) => console.log(line);

function chromiumPath() {
  const chosen = process.env.VMARK_CHROMIUM;
  if (chosen) return chosen;
  if (existsSync('/usr/bin/chromium')) return '/usr/bin/chromium';
  throw new Error('no Chromium: install it (/usr/bin/chromium) or set VMARK_CHROMIUM');
}

/** The page's HTML as served: byte for byte, but for links to its own `site` made root-relative. */
function servedHtml(page) {
  const html = readFileSync(path.join(CORPORA, page.file), 'utf8');
  if (!page.site) return html;
  const escaped = page.site.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return html.replace(new RegExp(`(href=["'])${escaped}(?=/)`, 'g'), '$1');
}

/**
 * The pages at /page/<name> on 127.0.0.1; any other document (a link followed) gets the landing
 * page and is recorded; any other request (the pages' scripts, styles, images) is a 404.
 */
async function servePages(pages) {
  const bodies = new Map(pages.map((page) => [`/page/${page.name}`, servedHtml(page)]));
  const landings = [];
  const server = createServer((request, response) => {
    const url = request.url ?? '/';
    const body = bodies.get(url);
    if (body !== undefined) {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(body);
    } else if (request.headers['sec-fetch-dest'] === 'document') {
      landings.push(url);
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(LANDING);
    } else {
      response.writeHead(404).end();
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${server.address().port}`;
  return { origin, landings, close: () => new Promise((resolve) => server.close(resolve)) };
}

// ---------------------------------------------------------------------------------------------
// What the client receives

/**
 * Counts what the server sends on the wire (each JSON-RPC message as serialized): responses to
 * the client's calls, and the server's own requests (elicitation: the approval prompts).
 */
function meter(handle) {
  const counts = { responseBytes: 0, responses: 0, promptBytes: 0, prompts: 0, otherBytes: 0 };
  const deliver = handle.transport.onmessage;
  handle.transport.onmessage = (message, extra) => {
    const bytes = Buffer.byteLength(JSON.stringify(message));
    if ('id' in message && ('result' in message || 'error' in message)) {
      counts.responseBytes += bytes;
      counts.responses++;
    } else if (message.method === 'elicitation/create') {
      counts.promptBytes += bytes;
      counts.prompts++;
    } else counts.otherBytes += bytes;
    deliver?.(message, extra);
  };
  return {
    take() {
      const taken = { ...counts };
      for (const key of Object.keys(counts)) counts[key] = 0;
      return taken;
    },
  };
}

/** A tool call whose text the script reads as a model would; a tool error ends the run. */
async function call(handle, name, args) {
  const result = await handle.client.callTool({ name, arguments: args });
  const text = (result.content ?? []).map((part) => part.text ?? '').join('\n');
  if (result.isError) throw new Error(`${handle.name}: ${name} failed: ${text.slice(0, 2000)}`);
  return text;
}

/** `call`, and how long it took (ms) as the client saw it. */
async function timed(handle, name, args) {
  const started = performance.now();
  const text = await call(handle, name, args);
  return { text, ms: performance.now() - started };
}

// ---------------------------------------------------------------------------------------------
// The two clients

/** The first link or button of Playwright's YAML snapshot whose name matches. */
export function peerTarget(snapshotText) {
  for (const match of snapshotText.matchAll(/- (link|button) "((?:[^"\\]|\\.)*)"[^\n]*\[ref=([\w-]+)\]/g)) {
    const name = JSON.parse(`"${match[2]}"`);
    if (TARGET_NAME.test(name)) return { role: match[1], name, ref: match[3] };
  }
  return undefined;
}

/** The first link or button of vmark's read (its JSON text) whose name matches. */
export function vmarkTarget(readText) {
  const { snapshot } = JSON.parse(readText);
  return snapshot.find(
    (entry) => (entry.role === 'link' || entry.role === 'button') && TARGET_NAME.test(entry.name),
  );
}

async function startPeer(context) {
  const handle = await connectStdio({
    name: 'playwright-mcp',
    command: process.execPath,
    args: [
      PEER_CLI,
      '--headless',
      '--isolated',
      '--no-sandbox',
      '--browser',
      'chromium',
      '--executable-path',
      context.chromium,
      '--allowed-origins',
      context.origin,
      '--output-dir',
      path.join(context.tmp, 'peer-output'),
    ],
    env: {},
    cwd: context.tmp,
  });
  const definitions = Buffer.byteLength(JSON.stringify(await handle.client.listTools()));
  return { handle, definitions, counts: meter(handle) };
}

async function peerTask(peer, url) {
  const load = await timed(peer.handle, 'browser_navigate', { url });
  const snapshot = await call(peer.handle, 'browser_snapshot', {});
  const target = peerTarget(snapshot);
  if (!target)
    throw new Error(
      `playwright-mcp: no link or button matching ${TARGET_NAME} in:\n${snapshot.slice(0, 600)}`,
    );
  const click = await timed(peer.handle, 'browser_click', {
    element: `${target.role} "${target.name}"`,
    target: target.ref,
  });
  return { target, roundTrips: 3, loadMs: load.ms, clickMs: click.ms };
}

async function startVmark(context) {
  const workspace = mkdtempSync(path.join(context.tmp, 'vmark-ws-'));
  const handle = await connectStdio({
    name: 'vmark',
    command: process.execPath,
    args: [VMARK_CLI, 'mcp', '--workspace', workspace],
    // The pages are on 127.0.0.1, a private address the browser refuses by default.
    env: {
      VMARK_HOME: mkdtempSync(path.join(context.tmp, 'vmark-home-')),
      VMARK_BROWSER_ALLOW_PRIVATE: '1',
      VMARK_CHROMIUM: context.chromium,
      VMARK_NO_ATTACH: '1',
    },
    cwd: context.tmp,
    capabilities: { elicitation: {} },
  });
  // The person behind the client allows what they are asked, once: every click is asked anew.
  // A form that offers more than once has a required choice ("allow"): the person picks once.
  handle.client.setRequestHandler(ElicitRequestSchema, async (request) => ({
    action: 'accept',
    content: 'allow' in (request.params.requestedSchema?.properties ?? {}) ? { allow: 'once' } : {},
  }));
  const { tools } = await handle.client.listTools();
  const definitions = Buffer.byteLength(JSON.stringify({ tools }));
  const actions = tools.find((tool) => tool.name === 'browser')?.inputSchema.properties?.action?.enum ?? [];
  return { handle, definitions, counts: meter(handle), canAct: actions.includes('act') };
}

async function vmarkTask(vmark, url) {
  const open = await timed(vmark.handle, 'browser', { action: 'open', url });
  const opened = JSON.parse(open.text);
  const read = await call(vmark.handle, 'browser_read', { action: 'read', tabId: opened.tabId });
  const target = vmarkTarget(read);
  if (!target) throw new Error(`vmark: no link or button matching ${TARGET_NAME} in:\n${read.slice(0, 600)}`);
  if (!vmark.canAct)
    throw new Error(
      'vmark: the browser tool has no `act` action yet (issue 14, item 1: act click by role + name); ' +
        'the click cannot be measured',
    );
  const click = await timed(vmark.handle, 'browser', {
    action: 'act',
    tabId: opened.tabId,
    operation: 'click',
    role: target.role,
    name: target.name,
  });
  // After the count (not part of the task): a client closes its tabs, at most 8 may be open.
  const done = () => call(vmark.handle, 'browser', { action: 'close', tabId: opened.tabId });
  return { target, roundTrips: 3, loadMs: open.ms, clickMs: click.ms, done };
}

// ---------------------------------------------------------------------------------------------
// The run

async function runSide(side, task, url, landings) {
  const before = landings.length;
  side.counts.take();
  const { target, roundTrips, loadMs, clickMs, done } = await task(side, url);
  const counts = side.counts.take();
  // The click's navigation requests the landing page; given the time a model's next turn would take.
  const landed = await landedAfter(landings, before);
  await done?.();
  return {
    target: `${target.role} "${target.name}"`,
    tokens: Math.ceil(counts.responseBytes / BYTES_PER_TOKEN),
    bytes: counts.responseBytes,
    roundTrips,
    loadMs: round(loadMs, 1),
    clickMs: round(clickMs, 1),
    prompts: counts.prompts,
    promptBytes: counts.promptBytes,
    landed,
  };
}

async function landedAfter(landings, before) {
  for (let i = 0; i < 100 && landings.length === before; i++)
    await new Promise((resolve) => setTimeout(resolve, 50));
  return landings[before];
}

export async function runBrowserActBench(settings = {}) {
  if (settings.log) log = settings.log;
  if (!existsSync(VMARK_CLI)) throw new Error('core/dist is missing: run `npm run build` first');
  if (!existsSync(PEER_CLI)) throw new Error('@playwright/mcp is missing: run `npm ci`');
  const pages = settings.pages ? PAGES.filter((page) => settings.pages.includes(page.name)) : PAGES;
  const served = await servePages(pages);
  const context = {
    origin: served.origin,
    chromium: chromiumPath(),
    tmp: mkdtempSync(path.join(os.tmpdir(), 'vmark-bench-act-')),
  };
  let peer;
  let vmark;
  try {
    log(
      `\n[browser act] "find the sign-up link and click it" on ${pages.length} corpus pages, vmark vs ${PEER_NAME}`,
    );
    peer = await startPeer(context);
    vmark = await startVmark(context);
    const rows = [];
    for (const [index, page] of pages.entries()) {
      const url = `${served.origin}/page/${page.name}`;
      const row = { name: page.name };
      // Each goes first on every other page.
      for (const who of index % 2 === 0 ? ['vmark', 'peer'] : ['peer', 'vmark']) {
        row[who] =
          who === 'vmark'
            ? await runSide(vmark, vmarkTask, url, served.landings)
            : await runSide(peer, peerTask, url, served.landings);
      }
      for (const who of ['vmark', 'peer']) {
        if (row[who].landed === undefined)
          throw new Error(`${who}: the click on ${row[who].target} of ${page.name} did not land`);
      }
      rows.push(row);
      log(
        `  ${page.name.padEnd(20)} ${String(row.vmark.tokens).padStart(6)} / ${String(row.peer.tokens).padStart(6)} tokens` +
          `  ${fmtRatio(ratio(row.vmark.tokens, row.peer.tokens))}  ${row.vmark.target}`,
      );
    }
    const summary = summarize(rows, { vmark: vmark.definitions, peer: peer.definitions });
    report(summary);
    return summary;
  } finally {
    await vmark?.handle.close();
    await peer?.handle.close();
    await served.close();
    rmSync(context.tmp, { recursive: true, force: true });
  }
}

function summarize(rows, definitions) {
  const sum = (who, key) => rows.reduce((n, row) => n + row[who][key], 0);
  const tokens = { vmark: sum('vmark', 'tokens'), peer: sum('peer', 'tokens') };
  const median = (who, key) =>
    round(
      quantile(
        rows.map((row) => row[who][key]),
        0.5,
      ),
      1,
    );
  const timing = (key) => {
    const both = { vmark: median('vmark', key), peer: median('peer', key) };
    return { median_ms: both, ratio: round(ratio(both.vmark, both.peer)) };
  };
  return {
    pages: rows.length,
    peer: PEER_NAME,
    tokens: { ...tokens, ratio: round(ratio(tokens.vmark, tokens.peer)) },
    round_trips: { vmark: sum('vmark', 'roundTrips'), peer: sum('peer', 'roundTrips') },
    load_call: timing('loadMs'),
    click_call: timing('clickMs'),
    approval_prompts: { vmark: sum('vmark', 'prompts'), peer: sum('peer', 'prompts') },
    approval_prompt_bytes: { vmark: sum('vmark', 'promptBytes'), peer: sum('peer', 'promptBytes') },
    tool_definition_bytes: definitions,
    targets: {
      tokens: {
        target: TARGET.tokens,
        ratio: round(ratio(tokens.vmark, tokens.peer)),
        met: ratio(tokens.vmark, tokens.peer) <= TARGET.tokens,
      },
    },
    per_page: rows.map((row) => ({ ...row, tokens_ratio: round(ratio(row.vmark.tokens, row.peer.tokens)) })),
  };
}

function report(summary) {
  const s = summary;
  log(
    table([
      [
        'browser act: sign-up link, per page',
        'tokens vmark',
        'tokens peer',
        'ratio',
        'round trips vmark / peer',
      ],
      ...s.per_page.map((row) => [
        row.name,
        row.vmark.tokens,
        row.peer.tokens,
        fmtRatio(row.tokens_ratio),
        `${row.vmark.roundTrips} / ${row.peer.roundTrips}`,
      ]),
      [
        `total, ${s.pages} pages`,
        s.tokens.vmark,
        s.tokens.peer,
        fmtRatio(s.tokens.ratio),
        `${s.round_trips.vmark} / ${s.round_trips.peer}`,
      ],
    ]),
  );
  for (const [label, figures] of [
    ['load call (open / browser_navigate)', s.load_call],
    ['click call (act / browser_click)', s.click_call],
  ]) {
    log(
      `${label}, median: vmark ${fmtMs(figures.median_ms.vmark)}, peer ${fmtMs(figures.median_ms.peer)}, ` +
        `${fmtRatio(figures.ratio)}`,
    );
  }
  log(
    `approval prompts (to the person, not in the tokens): vmark ${s.approval_prompts.vmark} ` +
      `(${fmtBytes(s.approval_prompt_bytes.vmark)}), peer ${s.approval_prompts.peer}`,
  );
  log(
    `tool definitions (tools/list, once per session, not in the tokens): vmark ${fmtBytes(s.tool_definition_bytes.vmark)}, ` +
      `peer ${fmtBytes(s.tool_definition_bytes.peer)}`,
  );
  const t = s.targets.tokens;
  log(`target tokens: ${t.met ? 'met' : 'NOT met'} (${t.ratio} vs ${t.target})`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { pages: { type: 'string' } } });
  const summary = await runBrowserActBench({ pages: values.pages ? values.pages.split(',') : undefined });
  console.log(`BENCH_JSON ${JSON.stringify(summary)}`);
}
