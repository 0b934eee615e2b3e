#!/usr/bin/env node
/**
 * Reader mode against its two peers on the two real corpora (issue 15), in the same run:
 * vmark's generic reader (`readPage` of the built `@vmark/sdk/reader`), @mozilla/readability on
 * linkedom, and defuddle (`defuddle/node`) on linkedom — each from the page's HTML string, parse
 * included. Scores are token F1 against each corpus's expectation (bench/reader-corpus.mjs);
 * times are per page, the median of the timed runs, the three readers interleaved page by page.
 *
 *   node bench/reader.mjs [--quick] [--runs N]
 *
 * The last line is `BENCH_JSON {...}`. Goal: mean F1 ≥ 0.95 on both corpora and ms per page no
 * more than defuddle's. It exits 0 either way (benchmarks inform), 1 only if it could not measure.
 */
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { Readability } from '@mozilla/readability';
import { Defuddle } from 'defuddle/node';
import { parseHTML } from 'linkedom';
import { f1, htmlText, loadCorpus, markdownText } from './reader-corpus.mjs';
import { fmtMs, fmtRatio, ratio, round, table } from './stats.mjs';

const GOAL_F1 = 0.95;
const WORST = 10;

/** Each reader: HTML and URL in, scorable text out. */
async function readers() {
  const { readPage } = await import(new URL('../sdk/dist/reader/index.js', import.meta.url).href);
  return {
    vmark: async (html, url) => markdownText((await readPage(html, url)).markdown),
    readability: async (html) => {
      const { document } = parseHTML(html);
      return htmlText(new Readability(document).parse()?.content ?? '');
    },
    defuddle: async (html, url) => {
      const { document } = parseHTML(html);
      return markdownText((await Defuddle(document, url, { markdown: true })).content ?? '');
    },
  };
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Scores and times every reader on every page of `corpus`. */
async function measure(corpus, all, runs) {
  const pages = loadCorpus(corpus);
  const names = Object.keys(all);
  const rows = pages.map((page) => ({ page, f1: {}, times: Object.fromEntries(names.map((n) => [n, []])) }));
  // One untimed pass warms the JIT and scores; the timed runs rotate who goes first.
  for (const row of rows) {
    for (const name of names)
      row.f1[name] = f1(await all[name](row.page.html, row.page.url), row.page.expected);
  }
  for (let run = 0; run < runs; run++) {
    for (const [index, row] of rows.entries()) {
      const order = names.map((_, i) => names[(i + index + run) % names.length]);
      for (const name of order) {
        const started = performance.now();
        await all[name](row.page.html, row.page.url);
        row.times[name].push(performance.now() - started);
      }
    }
  }
  const summary = Object.fromEntries(
    names.map((name) => [
      name,
      {
        f1: rows.reduce((sum, row) => sum + row.f1[name], 0) / rows.length,
        msPerPage: rows.reduce((sum, row) => sum + median(row.times[name]), 0) / rows.length,
      },
    ]),
  );
  return { corpus, pages: rows.length, summary, rows };
}

export async function runReaderBench({ quick = false, runs = quick ? 1 : 3, log = console.log } = {}) {
  const all = await readers();
  log(`\n[reader] vmark vs @mozilla/readability and defuddle on linkedom; ${runs} timed run(s) per page`);
  const corpora = [];
  for (const corpus of ['readability', 'defuddle']) corpora.push(await measure(corpus, all, runs));

  for (const { corpus, pages, summary } of corpora) {
    log(`\n${corpus} corpus (${pages} pages)`);
    log(
      table([
        ['reader', 'mean F1', 'ms/page', 'ms vs defuddle'],
        ...Object.entries(summary).map(([name, s]) => [
          name,
          s.f1.toFixed(4),
          fmtMs(s.msPerPage),
          fmtRatio(ratio(s.msPerPage, summary.defuddle.msPerPage)),
        ]),
      ]),
    );
  }
  const worst = corpora
    .flatMap(({ corpus, rows }) => rows.map((row) => ({ corpus, ...row })))
    .sort((a, b) => a.f1.vmark - b.f1.vmark)
    .slice(0, WORST);
  log(`\nThe ${WORST} pages vmark reads worst (F1: vmark / readability / defuddle)`);
  for (const row of worst)
    log(
      `  ${`${row.corpus}/${row.page.name}`.padEnd(70)} ${row.f1.vmark.toFixed(3)} / ${row.f1.readability.toFixed(3)} / ${row.f1.defuddle.toFixed(3)}`,
    );

  const goals = Object.fromEntries(
    corpora.map(({ corpus, summary }) => [
      corpus,
      {
        f1: summary.vmark.f1 >= GOAL_F1,
        time: summary.vmark.msPerPage <= summary.defuddle.msPerPage,
      },
    ]),
  );
  log(
    `\nGoals: mean F1 ≥ ${GOAL_F1} — ${corpora.map((c) => `${c.corpus} ${goals[c.corpus].f1 ? 'MET' : 'NOT MET'}`).join(', ')}; ` +
      `ms/page ≤ defuddle's — ${corpora.map((c) => `${c.corpus} ${goals[c.corpus].time ? 'MET' : 'NOT MET'}`).join(', ')}`,
  );
  return {
    runs,
    corpora: Object.fromEntries(
      corpora.map(({ corpus, pages, summary }) => [
        corpus,
        {
          pages,
          ...Object.fromEntries(
            Object.entries(summary).map(([name, s]) => [
              name,
              { f1: round(s.f1, 4), ms_per_page: round(s.msPerPage) },
            ]),
          ),
        },
      ]),
    ),
    worst: worst.map((row) => ({
      page: `${row.corpus}/${row.page.name}`,
      vmark: round(row.f1.vmark),
      readability: round(row.f1.readability),
      defuddle: round(row.f1.defuddle),
    })),
    goals,
  };
}

if (import.meta.url === new URL(process.argv[1], 'file:').href) {
  const { values } = parseArgs({
    options: { quick: { type: 'boolean' }, runs: { type: 'string' } },
    strict: true,
  });
  const quick = values.quick ?? process.env.BENCH_QUICK === '1';
  const runs = values.runs === undefined ? undefined : Number(values.runs);
  if (runs !== undefined && !(Number.isInteger(runs) && runs > 0))
    throw new Error('--runs must be a positive integer');
  runReaderBench({ quick, runs }).then(
    (result) => process.stdout.write(`BENCH_JSON ${JSON.stringify(result)}\n`),
    (error) => {
      process.stderr.write(
        `bench: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
      );
      process.exit(1);
    },
  );
}
