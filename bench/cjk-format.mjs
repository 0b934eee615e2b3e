#!/usr/bin/env node
/**
 * Benchmark of the CJK transforms of `document.transform` (plugins/document/src/cjk),
 * run against the built module (`npm run build` first).
 *
 * It generates a deterministic ~1 MB Markdown document mixing Chinese and Latin text
 * the way an unformatted draft does (no spaces between scripts, ASCII punctuation in
 * Chinese sentences, fullwidth digits, `--` dashes, straight quotes), with headings,
 * lists, code fences, links and inline code, and times `cjk-format`, `cjk-spacing` and
 * `cjk-punctuation` over it: median, p90 and MB/s (MB = 10^6 bytes of UTF-8).
 *
 * Peers: AutoCorrect (`autocorrect-node`, a Rust formatter with a Markdown mode: the
 * closest thing to `cjk-format`) and pangu.js (`pangu`, spacing only: like
 * `cjk-spacing`, but not Markdown-aware), timed in the same run. pangu is a dev
 * dependency. AutoCorrect ships per-platform native packages that npm leaves out of
 * the lockfile (so `npm ci` would refuse it); the bench installs it from the npm
 * registry into a cache folder on first use instead, or takes it from
 * `CJK_BENCH_PEER_DIR`. Without it the run reports the AutoCorrect comparison as missing.
 *
 *   node bench/cjk-format.mjs [--quick] [--runs N] [--bytes N] [--baseline PATH] [--cpu]
 *
 * `--cpu` times each call by this process's CPU time (`process.cpuUsage`, all threads, so the
 * collector's helpers count) instead of the wall clock: on a machine shared with other work,
 * the wall clock mostly measures the waits for a core (ADR 78). AutoCorrect runs in-process
 * too, so the ratios stay like for like.
 *
 * `--baseline PATH` (the built `plugins/document/dist/cjk/index.js` of another
 * checkout, e.g. main's) times that build's three transforms in the same interleaved
 * rounds, as `baseline:<kind>`: a before/after under the same machine load.
 * `--baseline reference` does the same with this build's reference rule chain
 * (`rules/reference-chain.js`, every rule on every pass, ADR 65) in place of the chain
 * `cjk-format` runs; the narrow transforms have no reference and are timed as they are.
 *
 * Environment: BENCH_QUICK=1, CJK_BENCH_PEER_DIR=/path/with/node_modules.
 * The last line is `BENCH_JSON {...}`. Exit code 1 only when a result is wrong (the
 * formatter refused the document or is not idempotent on it), never for slowness.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { fmtMs, round, summarize, table } from './stats.mjs';

const MODULE_URL = new URL('../plugins/document/dist/cjk/index.js', import.meta.url);
const MB = 1_000_000;

const CJK_SENTENCES = [
  '最近我在学习TypeScript和React,感觉收获很大.',
  '作为一个developer,掌握这些modern前端技术是必须的.',
  '目前已经完成了３个projects,代码量超过１０００行.',
  '学习过程中遇到的最大挑战是--状态管理.',
  'Redux的概念. . .说实话有点难理解.',
  '后来换成了Zustand,简单多了!',
  '老师说"don\'t give up"然后继续讲"写代码要注重可读性",我觉得很有道理.',
  '访问https://example.com/docs获取v2.0.0版本文档,价格$99.99,时间12:30开始.',
  '总共花费大约$２００美元购买了学习资源(包括书籍和online courses).',
  '今日は東京でJavaScriptの勉強会がありました.',
  '这个API的响应时间是3.14秒,比预期的慢了50 %.',
  '我们用Node.js和PostgreSQL搭建了后端,部署在example.com上.',
];
const LATIN_SENTENCES = [
  'The editor keeps every document as plain text and saves it atomically.',
  'An assistant reads and writes through the protocol with revisions that detect a stale write.',
  'See the guide for details... it covers the settings one by one.',
];

/** A small linear congruential generator: the same seed gives the same document everywhere. */
function generator(seed) {
  let state = seed >>> 0;
  return (limit) => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state % limit;
  };
}

function paragraph(next) {
  const parts = [];
  for (let i = 0; i < 3 + next(4); i++) {
    const roll = next(10);
    if (roll === 0) parts.push(LATIN_SENTENCES[next(LATIN_SENTENCES.length)]);
    else parts.push(CJK_SENTENCES[next(CJK_SENTENCES.length)]);
    if (roll === 1) parts.push(`使用\`npm install ${next(100)}\`安装`);
    if (roll === 2) parts.push(`详见[文档${next(100)}](https://example.com/guide/${next(1000)})。`);
    if (roll === 3) parts.push(`**重点${next(10)}**说明`);
  }
  return parts.join('');
}

function section(next, index) {
  const out = [`## 第${index}章 Chapter${index}: 概述`, '', paragraph(next), '', paragraph(next), ''];
  switch (next(3)) {
    case 0:
      for (let i = 0; i < 3; i++) out.push(`- 列表项${i}:${CJK_SENTENCES[next(CJK_SENTENCES.length)]}`);
      out.push('');
      break;
    case 1:
      out.push('```ts', `const 标题${index} = "中文,code--keep";`, 'export default 标题;', '```', '');
      break;
    default:
      out.push(`> ${paragraph(next)}`, '');
  }
  return out.join('\n');
}

/** A document of at least `bytes` UTF-8 bytes. */
export function cjkDocument(bytes = MB, seed = 20260101) {
  const next = generator(seed);
  const sections = [];
  let size = 0;
  for (let index = 1; size < bytes; index++) {
    const text = section(next, index);
    sections.push(text);
    size += Buffer.byteLength(text) + 1;
  }
  return sections.join('\n');
}

const AUTOCORRECT = 'autocorrect-node@2.14.0';

/** A folder whose node_modules holds AutoCorrect: given, cached, or installed now (null if that fails). */
function autocorrectFolder(log) {
  if (process.env.CJK_BENCH_PEER_DIR) return path.resolve(process.env.CJK_BENCH_PEER_DIR);
  const folder = path.join(os.tmpdir(), 'vmark-bench-peers');
  if (existsSync(path.join(folder, 'node_modules', 'autocorrect-node'))) return folder;
  log(`installing the peer ${AUTOCORRECT} into ${folder} …`);
  const npm = spawnSync(
    'npm',
    ['install', '--prefix', folder, '--no-save', '--no-audit', '--no-fund', AUTOCORRECT],
    {
      stdio: 'ignore',
      timeout: 120_000,
    },
  );
  return npm.status === 0 ? folder : null;
}

/** Resolves the peers; each entry is null when the package cannot be loaded. */
function loadPeers(log) {
  const load = (name, from) => {
    try {
      return createRequire(from)(name);
    } catch {
      return null;
    }
  };
  const folder = autocorrectFolder(log);
  const autocorrect = folder && load('autocorrect-node', path.join(folder, 'noop.js'));
  const panguModule = load('pangu', fileURLToPath(import.meta.url));
  const pangu = panguModule?.pangu ?? panguModule?.default ?? panguModule;
  return {
    autocorrect:
      autocorrect && typeof autocorrect.formatFor === 'function'
        ? {
            name: 'autocorrect-node (formatFor markdown)',
            run: (text) => autocorrect.formatFor(text, 'markdown'),
          }
        : null,
    pangu:
      pangu && typeof pangu.spacingText === 'function'
        ? { name: 'pangu (spacingText)', run: (text) => pangu.spacingText(text) }
        : null,
  };
}

/** The transforms to compare with: another build's, or this build's with the reference rule chain. */
async function loadBaseline(baseline) {
  if (baseline !== 'reference') return import(pathToFileURL(path.resolve(baseline)).href);
  const index = await import(MODULE_URL.href);
  const { formatCjkDocumentReference } = await import(
    new URL('../plugins/document/dist/cjk/rules/reference-chain.js', import.meta.url).href
  );
  return {
    // What `applyTransform('cjk-format', …)` does, with the reference chain.
    applyTransform(kind, text) {
      if (kind !== 'cjk-format') return index.applyTransform(kind, text);
      const result = formatCjkDocumentReference(text, index.DEFAULT_CJK_FORMATTING);
      if (result.text === text) return text;
      const failure = index.checkMappedIntegrity(text, result.text, result.regions, result.regionStarts);
      if (failure) throw new index.CjkIntegrityError(failure);
      return result.text;
    },
  };
}

/** Milliseconds of wall-clock time, or of this process's CPU time (user + system, every thread). */
const clocks = {
  wall: () => performance.now(),
  cpu: () => {
    const usage = process.cpuUsage();
    return (usage.user + usage.system) / 1000;
  },
};

function time(run, input, runs, clock = clocks.wall) {
  const samples = [];
  for (let i = 0; i < runs; i++) {
    const start = clock();
    run(input);
    samples.push(clock() - start);
  }
  return summarize(samples);
}

/**
 * Runs the benchmark and returns its figures. `quick` uses fewer runs (for a smoke
 * test); `runs` and `bytes` override the defaults.
 */
export async function runCjkBench({
  quick = false,
  runs,
  bytes = MB,
  baseline,
  cpu = false,
  log = console.log,
} = {}) {
  const clock = cpu ? clocks.cpu : clocks.wall;
  const { applyTransform } = await import(MODULE_URL.href);
  const before = baseline ? await loadBaseline(baseline) : null;
  const document = cjkDocument(bytes);
  const size = Buffer.byteLength(document);
  const iterations = runs ?? (quick ? 3 : 15);
  const warmup = quick ? 1 : 3;

  // Correctness first: a fast wrong answer is not a result.
  const formatted = applyTransform('cjk-format', document);
  const problems = [];
  if (formatted === document) problems.push('cjk-format changed nothing');
  if (applyTransform('cjk-format', formatted) !== formatted) problems.push('cjk-format is not idempotent');

  const peers = loadPeers(log);
  const targets = [
    { key: 'cjk-format', run: (text) => applyTransform('cjk-format', text) },
    { key: 'cjk-spacing', run: (text) => applyTransform('cjk-spacing', text) },
    { key: 'cjk-punctuation', run: (text) => applyTransform('cjk-punctuation', text) },
  ];
  if (before) {
    for (const kind of ['cjk-format', 'cjk-spacing', 'cjk-punctuation']) {
      if (before.applyTransform(kind, document) !== applyTransform(kind, document))
        problems.push(`${kind} gives other bytes than the baseline`);
      targets.push({ key: `baseline:${kind}`, run: (text) => before.applyTransform(kind, text) });
    }
  }
  if (peers.autocorrect)
    targets.push({ key: 'peer:autocorrect', name: peers.autocorrect.name, run: peers.autocorrect.run });
  if (peers.pangu) targets.push({ key: 'peer:pangu', name: peers.pangu.name, run: peers.pangu.run });

  for (const target of targets) for (let i = 0; i < warmup; i++) target.run(document);
  const results = {};
  // Interleaved rounds, so a slow moment of the machine hits every target alike; every other
  // round in reverse order, so that no target always pays for the garbage of the one before.
  const samples = Object.fromEntries(targets.map((target) => [target.key, []]));
  for (let i = 0; i < iterations; i++) {
    const order = i % 2 === 0 ? targets : [...targets].reverse();
    for (const target of order) samples[target.key].push(time(target.run, document, 1, clock).median);
  }
  for (const target of targets) {
    const stats = summarize(samples[target.key]);
    results[target.key] = {
      name: target.name ?? target.key,
      median_ms: round(stats.median),
      p90_ms: round(stats.p90),
      mb_per_s: round(size / MB / (stats.median / 1000), 2),
    };
  }
  const ratio = (ours, peer) =>
    results[ours] && results[peer] ? round(results[ours].median_ms / results[peer].median_ms, 2) : null;
  const summary = {
    clock: cpu ? 'cpu' : 'wall',
    bytes: size,
    chars: document.length,
    runs: iterations,
    results,
    ratios: {
      'cjk-format/autocorrect': ratio('cjk-format', 'peer:autocorrect'),
      'cjk-spacing/pangu': ratio('cjk-spacing', 'peer:pangu'),
      'cjk-punctuation/pangu': ratio('cjk-punctuation', 'peer:pangu'),
      ...(before
        ? {
            'baseline:cjk-format/autocorrect': ratio('baseline:cjk-format', 'peer:autocorrect'),
            'baseline:cjk-spacing/pangu': ratio('baseline:cjk-spacing', 'peer:pangu'),
            'baseline:cjk-punctuation/pangu': ratio('baseline:cjk-punctuation', 'peer:pangu'),
          }
        : {}),
    },
    peers: Object.fromEntries(Object.entries(peers).map(([key, peer]) => [key, peer ? peer.name : null])),
    problems,
  };

  log(
    `CJK transforms over a ${(size / MB).toFixed(2)} MB Markdown document (${document.length} chars), ${iterations} runs` +
      (cpu ? ', CPU time' : ''),
  );
  log(
    table([
      ['target', 'median', 'p90', 'MB/s'],
      ...Object.entries(results).map(([key, r]) => [
        r.name ?? key,
        fmtMs(r.median_ms),
        fmtMs(r.p90_ms),
        r.mb_per_s,
      ]),
    ]),
  );
  if (!peers.autocorrect)
    log('AutoCorrect could not be installed or loaded: no cjk-format comparison in this run.');
  if (!peers.autocorrect && !peers.pangu) {
    log('No peer could be loaded: absolute figures only.');
  } else {
    for (const [name, value] of Object.entries(summary.ratios))
      if (value !== null) log(`ratio ${name}: ${value}×`);
  }
  for (const problem of problems) log(`PROBLEM: ${problem}`);
  return summary;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: {
      quick: { type: 'boolean' },
      runs: { type: 'string' },
      bytes: { type: 'string' },
      baseline: { type: 'string' },
      cpu: { type: 'boolean' },
    },
  });
  const summary = await runCjkBench({
    quick: values.quick ?? process.env.BENCH_QUICK === '1',
    runs: values.runs ? Number(values.runs) : undefined,
    bytes: values.bytes ? Number(values.bytes) : undefined,
    baseline: values.baseline,
    cpu: values.cpu,
  });
  console.log(`BENCH_JSON ${JSON.stringify(summary)}`);
  if (summary.problems.length > 0) process.exitCode = 1;
}
