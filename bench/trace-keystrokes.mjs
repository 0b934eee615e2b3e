#!/usr/bin/env node
/**
 * Where a keystroke's time goes in a page, from a Chromium trace of it typing
 * (`bench/editor-parse-ladder.mjs --trace DIR`): per keystroke, on the page's main thread, the task
 * that handled the keydown (its script, its garbage collection), the wait until the next frame,
 * and that frame's phases (style, layout, animation-frame callbacks, paint, commit); the medians
 * over the keystrokes, one column per trace.
 *
 *   node bench/trace-keystrokes.mjs DIR_OR_FILE...
 */
import fs from 'node:fs';
import path from 'node:path';
import { fmtMs, table } from './stats.mjs';

/** What each row sums inside a task, by trace event name (their own durations, nested ones too). */
const PHASES = {
  script: ['FunctionCall', 'RunMicrotasks', 'EvaluateScript', 'TimerFire', 'FireIdleCallback'],
  gc: ['MinorGC', 'MajorGC'],
  style: ['UpdateLayoutTree'],
  layout: ['Layout'],
  'prepaint + layerize': ['PrePaint', 'Layerize'],
  'animation frame callbacks': ['FireAnimationFrame'],
  paint: ['Paint'],
  commit: ['Commit'],
};

function files(args) {
  return args.flatMap((arg) =>
    fs.statSync(arg).isDirectory()
      ? fs
          .readdirSync(arg)
          .filter((name) => name.endsWith('.json'))
          .sort()
          .map((name) => path.join(arg, name))
      : [arg],
  );
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? Number.NaN : sorted[sorted.length >> 1];
};

/** The time (ms) covered by the events named in `names` that lie inside `task` (nested ones once). */
function within(events, task, names) {
  let sum = 0;
  let end = -Infinity;
  for (const event of events) {
    if (!names.includes(event.name) || event.ts < task.ts || event.ts >= task.ts + task.dur) continue;
    const from = Math.max(event.ts, end);
    const to = event.ts + event.dur;
    if (to > from) sum += to - from;
    end = Math.max(end, to);
  }
  return sum / 1000;
}

/** Per keystroke: the keydown's task, the wait, the first frame after it, in ms. */
function keystrokes(events) {
  const keydowns = events.filter((e) => e.name === 'EventDispatch' && e.args?.data?.type === 'keydown');
  if (keydowns.length === 0) return [];
  const thread = (e) => `${e.pid}:${e.tid}`;
  const main = thread(keydowns[0]);
  const mine = events.filter((e) => e.ph === 'X' && thread(e) === main).sort((a, b) => a.ts - b.ts);
  const tasks = mine.filter((e) => e.name === 'RunTask');
  const frames = mine.filter((e) => e.name === 'ProxyMain::BeginMainFrame');
  const inside = (outer) => (e) => e.ts >= outer.ts && e.ts < outer.ts + outer.dur;
  const rows = [];
  for (const keydown of keydowns) {
    const task = tasks.find((t) => inside(t)(keydown));
    if (task === undefined) continue;
    const frame = frames.find((f) => f.ts >= task.ts + task.dur && within(mine, f, ['Commit']) > 0);
    if (frame === undefined) continue;
    const taskEvents = mine.filter(inside(task));
    const frameEvents = mine.filter(inside(frame));
    const between = tasks.filter((t) => t.ts >= task.ts + task.dur && t.ts < frame.ts && !inside(t)(frame));
    const row = {
      total: (frame.ts + frame.dur - keydown.ts) / 1000,
      'keydown task': task.dur / 1000,
      'keydown task: script': within(taskEvents, task, ['FunctionCall', 'RunMicrotasks']),
      'keydown task: gc': within(taskEvents, task, PHASES.gc),
      'tasks before the frame': between.reduce((sum, t) => sum + t.dur, 0) / 1000,
      'wait for the frame': (frame.ts - (task.ts + task.dur)) / 1000,
      frame: frame.dur / 1000,
    };
    for (const [phase, names] of Object.entries(PHASES))
      if (phase !== 'script' && phase !== 'gc') row[`frame: ${phase}`] = within(frameEvents, frame, names);
    row['frame: script'] = within(frameEvents, frame, ['FunctionCall', 'EventDispatch']);
    row['frame: gc'] = within(frameEvents, frame, PHASES.gc);
    rows.push(row);
  }
  return rows;
}

const paths = files(process.argv.slice(2));
if (paths.length === 0) {
  console.error('usage: node bench/trace-keystrokes.mjs DIR_OR_FILE...');
  process.exit(2);
}
const perTrace = paths.map((file) => keystrokes(JSON.parse(fs.readFileSync(file, 'utf8'))));
const names = Object.keys(perTrace.find((rows) => rows.length > 0)?.[0] ?? {});
console.log(
  table([
    ['median over keystrokes', ...paths.map((file) => path.basename(file))],
    ...names.map((name) => [name, ...perTrace.map((rows) => fmtMs(median(rows.map((r) => r[name]))))]),
  ]),
);
console.log(`keystrokes: ${perTrace.map((rows) => rows.length).join(', ')}`);
