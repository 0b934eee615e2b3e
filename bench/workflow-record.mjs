#!/usr/bin/env node
/**
 * What recording costs the person: the time a person's input takes to be handled by the page
 * (a click on a button, then typing into a field — one trusted CDP `Input.*` event each, as their
 * input in the editor's view reaches a tab) while `workflow_record` records the tab, against the
 * same input on the same page with no recording (the peer), interleaved in the same run and the
 * same Chromium (/usr/bin/chromium or VMARK_CHROMIUM). It uses the built plugin
 * (plugins/browser/dist) in-process: a real BrowserTab and TabRecording, no host.
 *
 *   node bench/workflow-record.mjs [--rounds N] [--actions N]
 *
 * Each round is `--actions` clicks and as many typed characters (default 10 rounds of 150), with
 * recording off and on, in turns, after an untimed round of each (a fresh recording each round, so the 200-a-page bound is not reached
 * and every event is reported). The recording's events are checked against what was done: a run
 * that lost an event exits 1 and posts no figure. The last line is `BENCH_JSON {...}`.
 */
import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { BrowserTab } from '../plugins/browser/dist/tabs/browser-tab.js';
import { TabRecording } from '../plugins/browser/dist/recording/tab-recording.js';
import { fmtMs, fmtRatio, ratio, round, summarize, table } from './stats.mjs';

const PEER_NAME = 'the same input with no recording';
const PAGE = `<!doctype html><title>Form</title>
<label>Full name <input id="name"></label>
<button id="b" style="width:200px;height:50px">Tap</button>`;

function chromiumPath() {
  const chosen = process.env.VMARK_CHROMIUM;
  if (chosen) return chosen;
  if (existsSync('/usr/bin/chromium')) return '/usr/bin/chromium';
  throw new Error('no Chromium: install it (/usr/bin/chromium) or set VMARK_CHROMIUM');
}

/** Milliseconds of each click and each typed character, one after the other. */
async function useThePage(page, box, actions) {
  const clicks = [];
  const keys = [];
  for (let i = 0; i < actions; i++) {
    const started = performance.now();
    await page.mouse.click(box.x + 10, box.y + 10);
    clicks.push(performance.now() - started);
  }
  await page.click('#name');
  for (let i = 0; i < actions; i++) {
    const started = performance.now();
    await page.keyboard.insertText('x');
    keys.push(performance.now() - started);
  }
  return { clicks, keys };
}

export async function runWorkflowRecordBench({ rounds = 10, actions = 150, log = console.log } = {}) {
  // Every event of a round is kept: its clicks and its typing stay under the 200 a page.
  if (!(actions >= 1 && actions <= 198)) throw new Error('--actions must be from 1 to 198');
  const browser = await chromium.launch({ executablePath: chromiumPath(), args: ['--no-sandbox'] });
  try {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.route('http://bench.invalid/**', (route) =>
      route.fulfill({ contentType: 'text/html', body: PAGE }),
    );
    const tab = new BrowserTab('tab-bench', 'main', 'sandbox', page, context);
    const off = { clicks: [], keys: [] };
    const on = { clicks: [], keys: [] };
    const plainRound = async () => {
      await page.goto('http://bench.invalid/form');
      const box = await page.locator('#b').boundingBox();
      const times = await useThePage(page, box, actions);
      off.clicks.push(...times.clicks);
      off.keys.push(...times.keys);
    };
    const recordedRound = async () => {
      await page.goto('http://bench.invalid/form');
      const box = await page.locator('#b').boundingBox();
      const recording = await TabRecording.start(tab, 'bench', 'bench');
      const times = await useThePage(page, box, actions);
      on.clicks.push(...times.clicks);
      on.keys.push(...times.keys);
      const { events, capped } = await recording.stop();
      // The page the recording starts on, each click, one burst of typing (the click into the
      // field is left to its typing).
      if (capped || events.length !== actions + 2)
        throw new Error(`the recording kept ${events.length} events (capped: ${capped}), not what was done`);
    };
    // One untimed round of each, then the two in turn, each first every other round.
    await plainRound();
    await recordedRound();
    off.clicks.length = off.keys.length = on.clicks.length = on.keys.length = 0;
    for (let round = 0; round < rounds; round++) {
      if (round % 2 === 0) {
        await plainRound();
        await recordedRound();
      } else {
        await recordedRound();
        await plainRound();
      }
    }
    const rows = [
      ['input', 'recording off (peer)', 'recording on', 'on / off'],
      ...['clicks', 'keys'].map((kind) => {
        const a = summarize(off[kind]);
        const b = summarize(on[kind]);
        return [
          kind,
          `${fmtMs(a.median)} (p90 ${fmtMs(a.p90)})`,
          `${fmtMs(b.median)} (p90 ${fmtMs(b.p90)})`,
          fmtRatio(ratio(b.median, a.median)),
        ];
      }),
    ];
    log(`workflow_record: a person's input while the tab is recorded, against ${PEER_NAME}`);
    log(table(rows));
    const result = {
      peer: PEER_NAME,
      rounds,
      actions,
      clickMedianMs: { off: round(summarize(off.clicks).median), on: round(summarize(on.clicks).median) },
      keyMedianMs: { off: round(summarize(off.keys).median), on: round(summarize(on.keys).median) },
      clickRatio: round(ratio(summarize(on.clicks).median, summarize(off.clicks).median)),
      keyRatio: round(ratio(summarize(on.keys).median, summarize(off.keys).median)),
    };
    return result;
  } finally {
    await browser.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({ options: { rounds: { type: 'string' }, actions: { type: 'string' } } });
  const result = await runWorkflowRecordBench({
    rounds: values.rounds ? Number(values.rounds) : undefined,
    actions: values.actions ? Number(values.actions) : undefined,
  }).catch((error) => {
    console.error(error);
    process.exit(1);
  });
  console.log(`BENCH_JSON ${JSON.stringify(result)}`);
}
