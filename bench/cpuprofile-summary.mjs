#!/usr/bin/env node
/**
 * Summarizes V8 `.cpuprofile` files (from `node --cpu-prof`): where the sampled
 * time went, by package or repo folder, by function (self time), and the
 * inclusive time of functions whose name matches a pattern.
 *
 *   node bench/cpuprofile-summary.mjs FILE_OR_DIR... [--top N] [--inclusive REGEX]
 *
 * Several profiles are averaged (per profile), so a folder of cold-start
 * profiles gives the cost of one start.
 *
 * A typical use, profiling the servers under the benchmark's own load:
 *   node bench/run.mjs --only cold --cold-runs 5 \
 *     --vmark-node-arg=--cpu-prof --vmark-node-arg=--cpu-prof-dir=/tmp/prof-vmark
 *   node bench/cpuprofile-summary.mjs /tmp/prof-vmark --inclusive 'createHost|startHost|serveStdio'
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { table } from './stats.mjs';

const REPO = fileURLToPath(new URL('..', import.meta.url));

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { top: { type: 'string' }, inclusive: { type: 'string' } },
});
const top = Number(values.top ?? 25);
const inclusivePattern = values.inclusive ? new RegExp(values.inclusive) : null;

const files = positionals.flatMap((entry) =>
  fs.statSync(entry).isDirectory()
    ? fs
        .readdirSync(entry)
        .filter((name) => name.endsWith('.cpuprofile'))
        .map((name) => path.join(entry, name))
    : [entry],
);
if (files.length === 0) {
  process.stderr.write(
    'usage: node bench/cpuprofile-summary.mjs FILE_OR_DIR... [--top N] [--inclusive REGEX]\n',
  );
  process.exit(2);
}

/** Where a script belongs: an npm package, a repo folder, node's own code, or V8. */
function bucketOf(url) {
  if (!url) return '(v8/native)';
  if (url.startsWith('node:')) return 'node: (built-in modules)';
  const file = url.startsWith('file://') ? fileURLToPath(url) : url;
  const nm = file.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const rest = file.slice(nm + 'node_modules/'.length).split('/');
    return rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
  }
  if (file.startsWith(REPO)) return path.relative(REPO, file).split('/').slice(0, 2).join('/');
  return file;
}

const byBucket = new Map();
const byFunction = new Map();
const inclusive = new Map();
let totalMs = 0;

for (const file of files) {
  const profile = JSON.parse(fs.readFileSync(file, 'utf8'));
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const selfMs = new Map();
  // timeDeltas[i] is the time before sample i; attribute it to that sample's node.
  for (let i = 0; i < profile.samples.length; i++) {
    const delta = (profile.timeDeltas[i] ?? 0) / 1000;
    selfMs.set(profile.samples[i], (selfMs.get(profile.samples[i]) ?? 0) + delta);
  }
  for (const [id, ms] of selfMs) {
    const frame = nodes.get(id).callFrame;
    totalMs += ms;
    if (frame.functionName === '(idle)') continue;
    const bucket = ['(program)', '(garbage collector)'].includes(frame.functionName)
      ? frame.functionName
      : bucketOf(frame.url);
    byBucket.set(bucket, (byBucket.get(bucket) ?? 0) + ms);
    const where = frame.url
      ? `${bucketOf(frame.url)}:${path.basename(frame.url)}:${frame.lineNumber + 1}`
      : '';
    const key = `${frame.functionName || '(anonymous)'}  ${where}`;
    byFunction.set(key, (byFunction.get(key) ?? 0) + ms);
    if (inclusivePattern) {
      // Counted once per sample for each matching name on its stack.
      const seen = new Set();
      for (let at = id; at !== undefined; at = parent.get(at)) {
        const name = nodes.get(at).callFrame.functionName;
        if (name && inclusivePattern.test(name) && !seen.has(name)) {
          seen.add(name);
          inclusive.set(name, (inclusive.get(name) ?? 0) + ms);
        }
      }
    }
  }
}

const per = (ms) => (ms / files.length).toFixed(1);
const idle = totalMs - [...byBucket.values()].reduce((a, b) => a + b, 0);
process.stdout.write(
  `${files.length} profile(s); per profile: ${per(totalMs)} ms sampled, ${per(idle)} ms idle\n\n`,
);
const sorted = (map) => [...map.entries()].sort((a, b) => b[1] - a[1]);
process.stdout.write(
  table([
    ['self time by package / folder', 'ms'],
    ...sorted(byBucket)
      .slice(0, top)
      .map(([k, v]) => [k, per(v)]),
  ]) + '\n\n',
);
process.stdout.write(
  table([
    ['self time by function', 'ms'],
    ...sorted(byFunction)
      .slice(0, top)
      .map(([k, v]) => [k, per(v)]),
  ]) + '\n',
);
if (inclusivePattern) {
  process.stdout.write(
    '\n' +
      table([
        ['inclusive time (on stack)', 'ms'],
        ...sorted(inclusive)
          .slice(0, top)
          .map(([k, v]) => [k, per(v)]),
      ]) +
      '\n',
  );
}
