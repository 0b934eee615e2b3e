#!/usr/bin/env node
/**
 * Vault search on a generated 20,000-note vault (issue 19 item 3, ADR 68), against Debian's
 * ripgrep (`/usr/bin/rg`) for the same queries with the same options, in the same run:
 *
 *   - vmark: the built `core/dist/shell/server/vault-search.js` (its worker thread, quick open's
 *     `WorkspaceFileIndex` with its folder watches), a search from the query to the answer the
 *     page would get (matches with their lines, capped at 2,000 listed, every match counted).
 *   - rg: `rg --line-number --column` (`-F` unless regex, `-i` unless case, `-w` for whole
 *     words) over the vault, its output read through a pipe (it lists every match).
 *
 * Cold: the first search of each side (vmark reads every file into its worker; rg on a vault the
 * page cache already holds, since the vault was just written). Warm: the median over `--runs`
 * rounds of every query. The notes' paths are quick open's generator (`vaultPaths`), their bodies
 * ~30 lines of words from the same kind of seeded generator: deterministic, written to a temp
 * folder, removed after. `node bench/search.mjs [--notes N] [--runs N] [--quick] [--keep]`; in
 * `bench/run.mjs` as `--only search`. The last line is `BENCH_JSON {...}`. Goal: ≤ 1.0× rg warm.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { vaultPaths } from './quick-open.mjs';
import { fmtMs, fmtRatio, ratio, round, summarize, table } from './stats.mjs';

const REPO = fileURLToPath(new URL('..', import.meta.url));
const DIST = path.join(REPO, 'core', 'dist');
const RG = '/usr/bin/rg';
const GOAL_RATIO = 1.0;
const WORDS = [
  'meeting',
  'notes',
  'project',
  'journal',
  'idea',
  'draft',
  'reading',
  'recipe',
  'travel',
  'budget',
  'the',
  'of',
  'and',
  'a',
  'to',
  'in',
  'is',
  'for',
  'on',
  'with',
  'Paris',
  'Kyoto',
  'review',
  'plan',
  'call',
  'follow-up',
  'deadline',
  'summary',
  'question',
  'answer',
];

/** The queries, each with the options a person would tick. */
const QUERIES = [
  {
    name: 'common word',
    query: 'meeting',
    options: { caseSensitive: false, wholeWord: false, regex: false },
  },
  {
    name: 'rare phrase',
    query: 'Kyoto deadline',
    options: { caseSensitive: false, wholeWord: false, regex: false },
  },
  {
    name: 'whole word, case',
    query: 'plan',
    options: { caseSensitive: true, wholeWord: true, regex: false },
  },
  { name: 'regex', query: 'budget \\d{3}', options: { caseSensitive: false, wholeWord: false, regex: true } },
  { name: 'no match', query: 'zzqxj', options: { caseSensitive: false, wholeWord: false, regex: false } },
];

/** A note's body: ~30 lines of seeded words, some with a number after them. */
function noteBody(i, next) {
  const lines = [`# Note ${i}`, ''];
  for (let l = 0; l < 30; l++) {
    const words = Array.from({ length: 6 + next(6) }, () => WORDS[next(WORDS.length)]);
    if (next(4) === 0) words.push(String(100 + next(900)));
    lines.push(words.join(' '));
  }
  return `${lines.join('\n')}\n`;
}

async function writeVault(root, paths) {
  let seed = 68;
  const next = (n) => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    // The high bits: an LCG's low bits repeat in short cycles, and the words would too.
    return Math.floor(seed / 65536) % n;
  };
  const bodies = paths.map((_, i) => noteBody(i, next));
  for (const folder of new Set(paths.map((p) => path.dirname(p)))) {
    await fs.mkdir(path.join(root, folder), { recursive: true });
  }
  for (let i = 0; i < paths.length; i += 500) {
    await Promise.all(paths.slice(i, i + 500).map((p, j) => fs.writeFile(path.join(root, p), bodies[i + j])));
  }
}

function rgArgs({ query, options }, root) {
  const args = ['--line-number', '--column', '--no-heading', '--color', 'never', '--no-config'];
  if (!options.regex) args.push('-F');
  if (!options.caseSensitive) args.push('-i');
  if (options.wholeWord) args.push('-w');
  return [...args, '-e', query, root];
}

function runRg(spec, root) {
  const started = performance.now();
  const run = spawnSync(RG, rgArgs(spec, root), { maxBuffer: 1024 * 1024 * 1024, encoding: 'utf8' });
  const ms = performance.now() - started;
  if (run.status !== 0 && run.status !== 1) throw new Error(`rg failed: ${run.stderr}`);
  return { ms, lines: run.stdout === '' ? 0 : run.stdout.split('\n').length - 1 };
}

export async function runSearchBench({ quick = false, notes, runs, keep = false, log = console.log } = {}) {
  const count = notes ?? (quick ? 2_000 : 20_000);
  const rounds = runs ?? (quick ? 3 : 7);
  const dir = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'vmark-bench-search-')));
  const root = path.join(dir, 'vault');
  const home = path.join(dir, 'home');
  await fs.mkdir(home);
  const load = (rel) => import(pathToFileURL(path.join(DIST, rel)).href);
  const { VaultSearch } = await load('shell/server/vault-search.js');
  const { WorkspaceFileIndex } = await load('shell/server/workspace-file-index.js');
  const { FolderWatcher } = await load('documents/folder-watcher.js');
  const { HostVault } = await load('vault/host-vault.js');
  const folders = new FolderWatcher();
  let search;
  let index;
  try {
    log(`search: writing ${count} notes…`);
    await writeVault(root, vaultPaths(count));
    const vault = new HostVault({ home });
    await vault.addWorkspaceRoot(root);
    index = new WorkspaceFileIndex(root, folders, vault, [home]);
    await index.ready;
    const refuse = () => {
      throw new Error('the bench does not replace');
    };
    search = new VaultSearch(
      { rootsOf: () => [root], indexOf: () => index },
      { tabOfDocument: refuse },
      { resolve: refuse },
      { findByPath: refuse, annotate: refuse },
      { append: refuse },
    );
    const ours = async (spec) => {
      const started = performance.now();
      const result = await search.search('main', spec.query, spec.options);
      const ms = performance.now() - started;
      const listed = result.files.reduce((sum, f) => sum + f.matches.length, 0);
      const all = listed + result.files.reduce((sum, f) => sum + f.more, 0) + result.moreMatches;
      return { ms, matches: all };
    };

    const coldOurs = await ours(QUERIES[0]);
    const coldRg = runRg(QUERIES[0], root);
    const rows = [];
    const perQuery = [];
    for (const spec of QUERIES) {
      const vm = [];
      const rg = [];
      let matches = 0;
      let rgLines = 0;
      for (let r = 0; r < rounds; r++) {
        const a = await ours(spec);
        const b = runRg(spec, root);
        vm.push(a.ms);
        rg.push(b.ms);
        matches = a.matches;
        rgLines = b.lines;
      }
      const a = summarize(vm);
      const b = summarize(rg);
      perQuery.push({ name: spec.name, vmark: a, rg: b, matches, rgLines });
      rows.push([
        spec.name,
        fmtMs(a.median),
        fmtMs(b.median),
        fmtRatio(ratio(a.median, b.median)),
        `${matches} / ${rgLines} lines`,
      ]);
    }
    const warmOurs = summarize(perQuery.map((q) => q.vmark.median));
    const warmRg = summarize(perQuery.map((q) => q.rg.median));
    const warmRatio = ratio(
      perQuery.reduce((s, q) => s + q.vmark.median, 0),
      perQuery.reduce((s, q) => s + q.rg.median, 0),
    );
    log(
      table([
        ['query', 'vmark warm', 'rg warm', 'ratio', 'matches (vmark) / lines (rg)'],
        ...rows,
        [
          'cold (first search)',
          fmtMs(coldOurs.ms),
          fmtMs(coldRg.ms),
          fmtRatio(ratio(coldOurs.ms, coldRg.ms)),
          '',
        ],
      ]),
    );
    log(
      `warm, all queries summed: ${fmtRatio(warmRatio)} of rg; goal ≤ ${GOAL_RATIO}×: ${warmRatio <= GOAL_RATIO ? 'met' : 'not met'}`,
    );
    return {
      notes: count,
      rounds,
      per_query: perQuery.map((q) => ({
        name: q.name,
        vmark_median_ms: round(q.vmark.median),
        rg_median_ms: round(q.rg.median),
        ratio: round(ratio(q.vmark.median, q.rg.median)),
        matches: q.matches,
        rg_lines: q.rgLines,
      })),
      warm_median_ms: round(warmOurs.median),
      warm_rg_median_ms: round(warmRg.median),
      warm_ratio: round(warmRatio),
      cold_ms: round(coldOurs.ms),
      cold_rg_ms: round(coldRg.ms),
      goal_met: warmRatio <= GOAL_RATIO,
    };
  } finally {
    search?.dispose();
    index?.dispose();
    folders.dispose();
    if (keep) log(`kept ${dir}`);
    else await fs.rm(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: {
      notes: { type: 'string' },
      runs: { type: 'string' },
      quick: { type: 'boolean' },
      keep: { type: 'boolean' },
    },
  });
  runSearchBench({
    quick: values.quick ?? process.env.BENCH_QUICK === '1',
    notes: values.notes ? Number(values.notes) : undefined,
    runs: values.runs ? Number(values.runs) : undefined,
    keep: values.keep,
  }).then(
    (summary) => console.log(`BENCH_JSON ${JSON.stringify(summary)}`),
    (error) => {
      process.stderr.write(
        `bench: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
      );
      process.exit(1);
    },
  );
}
