#!/usr/bin/env node
/**
 * Quick open on a 20,000-note vault (issue 19): the host's answer per keystroke — the built
 * `core/dist/matching/path-index.js` (the fuzzy ranking, narrowed keystroke by keystroke) keeping the top 50 — against a named
 * peer in the same run: GNU `grep -iE` with the query's letters joined by `.*`, spawned per
 * keystroke over the same path list (what `rg --files | grep` does once the walk is cached; it
 * filters, it does not rank). The vault's paths are generated, deterministic, never written.
 *
 *   node bench/quick-open.mjs [--notes N] [--runs N]
 *
 * The last line is `BENCH_JSON {...}`. Goal: < 16 ms median per keystroke. Exits 0 either way.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { fmtMs, fmtRatio, ratio, round, summarize, table } from './stats.mjs';

const GOAL_MS = 16;
const TOP = 50;
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
];
const TYPED = ['meetnot', 'projdr', 'jrnl24', 'readrec', 'zzq'];

/** Deterministic paths: folders two deep, names of two words and a number (a linear congruential seed). */
function vaultPaths(count) {
  let seed = 19;
  const next = (n) => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % n;
  };
  return Array.from({ length: count }, (_, i) => {
    const folder = `${WORDS[next(10)]}/${2015 + next(10)}`;
    return `${folder}/${WORDS[next(10)]}-${WORDS[next(10)]}-${i}.md`;
  });
}

const { values } = parseArgs({ options: { notes: { type: 'string' }, runs: { type: 'string' } } });
const notes = Number(values.notes ?? 20000);
const runs = Number(values.runs ?? 5);
const { PathIndex } = await import(new URL('../core/dist/matching/path-index.js', import.meta.url).href);
const paths = vaultPaths(notes);
const index = new PathIndex();
index.set(paths);
const dir = mkdtempSync(path.join(os.tmpdir(), 'vmark-quick-open-'));
const list = path.join(dir, 'paths.txt');
writeFileSync(list, paths.join('\n') + '\n');

const ours = [];
const peer = [];
try {
  for (let run = 0; run < runs; run++) {
    for (const word of TYPED) {
      for (let n = 1; n <= word.length; n++) {
        const query = word.slice(0, n);
        let start = performance.now();
        index.query(query, [], TOP);
        ours.push(performance.now() - start);
        start = performance.now();
        const grep = spawnSync('grep', ['-icE', [...query].join('.*'), list], { encoding: 'utf8' });
        peer.push(performance.now() - start);
        if (grep.error) throw new Error(`grep could not run: ${grep.error.message}`);
      }
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
const a = summarize(ours);
const b = summarize(peer);
console.log(`quick open, ${notes} paths, ${a.n} keystrokes, top ${TOP}`);
console.log(
  table([
    ['', 'median', 'p90'],
    ['vmark PathIndex (top 50)', fmtMs(a.median), fmtMs(a.p90)],
    ['grep -iE (filter only)', fmtMs(b.median), fmtMs(b.p90)],
    ['ratio vmark / grep', fmtRatio(ratio(a.median, b.median)), fmtRatio(ratio(a.p90, b.p90))],
  ]),
);
console.log(`goal < ${GOAL_MS} ms median: ${a.median < GOAL_MS ? 'met' : 'not met'}`);
console.log(
  'BENCH_JSON ' +
    JSON.stringify({
      notes,
      vmarkMedianMs: round(a.median),
      grepMedianMs: round(b.median),
      ratio: round(ratio(a.median, b.median)),
    }),
);
