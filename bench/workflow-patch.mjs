#!/usr/bin/env node
/**
 * Benchmark of the workflow patch engine (plugins/workflow/src/patch), run against the
 * built module (`npm run build` first).
 *
 * On the largest starter workflow of the shared corpus it times typical `workflow.apply_patch`
 * edits through `applyPatches` (yaml CST route: only the edited nodes are rewritten) and
 * through the naive route the packages notes warn about: `parseDocument(src)`, `doc.setIn(...)`,
 * `doc.toString()`. The point is as much the size of the diff as the time: for each route it
 * reports the lines and bytes that differ from the original (line diff, LCS). Both routes must
 * produce the same data, or the run reports a problem.
 *
 *   node bench/workflow-patch.mjs [--quick] [--runs N]
 *
 * Environment: BENCH_QUICK=1. The last line is `BENCH_JSON {...}`. Exit code 1 only when a
 * result is wrong (the routes disagree on the data, or an edit is not idempotent), never
 * for slowness.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { isDeepStrictEqual } from 'node:util';
import { parseDocument } from 'yaml';
import { fmtMs, round, summarize, table } from './stats.mjs';

const MODULE_URL = new URL('../plugins/workflow/dist/patch/index.js', import.meta.url);
// bench/ → the repo → its parent, where the shared corpora live.
const CORPUS = fileURLToPath(new URL('../../shared/corpora/starter-workflows/', import.meta.url));

/** The largest workflow of the corpus: the most text for the naive route to reformat. */
function largestWorkflow() {
  const files = readdirSync(CORPUS, { recursive: true, encoding: 'utf8' }).filter((file) =>
    /\.ya?ml$/.test(file),
  );
  if (files.length === 0) throw new Error(`no workflows under ${CORPUS}`);
  const sized = files.map((file) => ({ file, bytes: statSync(path.join(CORPUS, file)).size }));
  sized.sort((a, b) => b.bytes - a.bytes || a.file.localeCompare(b.file));
  const { file, bytes } = sized[0];
  return { file, bytes, text: readFileSync(path.join(CORPUS, file), 'utf8') };
}

const data = (text) => parseDocument(text).toJS({ maxAliasCount: -1 });

/**
 * Typical edits of the file, each as an IRPatch and as the equivalent `setIn` of the naive
 * route: a scalar in place (runs-on), a new input of the first step that has `with:`, a new
 * workflow env entry.
 */
function scenarios(text) {
  const js = data(text);
  const [jobId, job] = Object.entries(js.jobs).find(([, value]) => value && typeof value === 'object');
  const stepIndex = job.steps.findIndex((step) => step && typeof step === 'object' && step.with);
  return [
    {
      name: 'job.set runs-on',
      patch: { kind: 'job.set', jobId, path: 'runs-on', value: 'ubuntu-24.04' },
      path: ['jobs', jobId, 'runs-on'],
      value: 'ubuntu-24.04',
    },
    {
      name: 'with.set (new input)',
      patch: { kind: 'with.set', jobId, stepIndex, key: 'vmark-input', value: 'bench' },
      path: ['jobs', jobId, 'steps', stepIndex, 'with', 'vmark-input'],
      value: 'bench',
    },
    {
      name: 'workflow.set env (new key)',
      patch: { kind: 'workflow.set', path: 'env.VMARK_BENCH', value: 'on' },
      path: ['env', 'VMARK_BENCH'],
      value: 'on',
    },
  ];
}

function naive(text, scenario) {
  const doc = parseDocument(text);
  doc.setIn(scenario.path, scenario.value);
  return doc.toString();
}

function timeOnce(run) {
  const start = performance.now();
  run();
  return performance.now() - start;
}

export async function runWorkflowPatchBench({ quick = false, runs, log = console.log } = {}) {
  const { applyPatches, diffLines } = await import(MODULE_URL.href);
  const workflow = largestWorkflow();
  const iterations = runs ?? (quick ? 30 : 300);
  const warmup = quick ? 5 : 30;
  const problems = [];
  const results = {};

  for (const scenario of scenarios(workflow.text)) {
    const ours = () => applyPatches(workflow.text, [scenario.patch]).text;
    const theirs = () => naive(workflow.text, scenario);

    // Correctness first: a fast wrong answer is not a result.
    const oursText = ours();
    const naiveText = theirs();
    if (!isDeepStrictEqual(data(oursText), data(naiveText)))
      problems.push(`${scenario.name}: applyPatches and setIn disagree on the data`);
    if (applyPatches(oursText, [scenario.patch]).text !== oursText)
      problems.push(`${scenario.name}: applyPatches is not idempotent`);

    for (let i = 0; i < warmup; i++) {
      ours();
      theirs();
    }
    const samples = { ours: [], naive: [] };
    // Interleaved, so a slow moment of the machine hits both routes alike.
    for (let i = 0; i < iterations; i++) {
      samples.ours.push(timeOnce(ours));
      samples.naive.push(timeOnce(theirs));
    }
    const oursDiff = diffLines(workflow.text, oursText);
    const naiveDiff = diffLines(workflow.text, naiveText);
    const oursStats = summarize(samples.ours);
    const naiveStats = summarize(samples.naive);
    results[scenario.name] = {
      cst: {
        median_ms: round(oursStats.median),
        p90_ms: round(oursStats.p90),
        lines_changed: oursDiff.removed.length + oursDiff.added.length,
        bytes_changed: oursDiff.bytesChanged,
      },
      naive: {
        median_ms: round(naiveStats.median),
        p90_ms: round(naiveStats.p90),
        lines_changed: naiveDiff.removed.length + naiveDiff.added.length,
        bytes_changed: naiveDiff.bytesChanged,
      },
      time_ratio: round(oursStats.median / naiveStats.median, 2),
    };
  }

  const summary = {
    file: workflow.file,
    bytes: workflow.bytes,
    lines: workflow.text.split('\n').length - (workflow.text.endsWith('\n') ? 1 : 0),
    runs: iterations,
    results,
    problems,
  };

  log(
    `Workflow patch: ${workflow.file} (${workflow.bytes} bytes, ${summary.lines} lines), ${iterations} runs each`,
  );
  log(
    table([
      ['edit', 'route', 'median', 'p90', 'lines changed', 'bytes changed'],
      ...Object.entries(results).flatMap(([name, r]) => [
        [
          name,
          'applyPatches (CST)',
          fmtMs(r.cst.median_ms),
          fmtMs(r.cst.p90_ms),
          r.cst.lines_changed,
          r.cst.bytes_changed,
        ],
        [
          '',
          'parseDocument+setIn+toString',
          fmtMs(r.naive.median_ms),
          fmtMs(r.naive.p90_ms),
          r.naive.lines_changed,
          r.naive.bytes_changed,
        ],
      ]),
    ]),
  );
  for (const [name, r] of Object.entries(results)) log(`time ratio ${name} (CST / naive): ${r.time_ratio}×`);
  for (const problem of problems) log(`PROBLEM: ${problem}`);
  return summary;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { quick: { type: 'boolean' }, runs: { type: 'string' } } });
  const summary = await runWorkflowPatchBench({
    quick: values.quick ?? process.env.BENCH_QUICK === '1',
    runs: values.runs ? Number(values.runs) : undefined,
  });
  console.log(`BENCH_JSON ${JSON.stringify(summary)}`);
  if (summary.problems.length > 0) process.exitCode = 1;
}
