#!/usr/bin/env node
/**
 * The CPU of one guarded save (`replaceIfUnchanged` of a 10 KB file, with the late-write watch
 * on, as `document.write` saves) in this build and in another build's `core/dist`, in one
 * process: alternating blocks of saves, each build in a folder of its own, CPU of all threads
 * (the fsyncs and the thread pool's trips included) from `process.cpuUsage`. The ratio per
 * block pair is this build over the other, both having met the same moment's load.
 *
 *   node bench/save-path-cpu.mjs --baseline /work/main/core/dist [--rounds 20] [--block 200] [--part save|checkpoint]
 *
 * `--part checkpoint` measures instead one checkpoint of a write at steady state (`CheckpointStore.append`
 * of a 10 KB text, as the recorder makes one for each AI write): each build with a home of its own,
 * filled past the retention's slack first (600 checkpoints), so that every block meets the prune.
 *
 * With `--baseline` pointing at this build's own core/dist the ratio is the harness's floor.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL, fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    baseline: { type: 'string' },
    rounds: { type: 'string', default: '20' },
    block: { type: 'string', default: '200' },
    part: { type: 'string', default: 'save' },
  },
});
if (!values.baseline) {
  console.error(
    'usage: node bench/save-path-cpu.mjs --baseline OTHER/core/dist [--rounds N] [--block N] [--part save|checkpoint]',
  );
  process.exit(2);
}
const rounds = Number(values.rounds);
const block = Number(values.block);
const here = fileURLToPath(new URL('../core/dist', import.meta.url));

async function buildAt(dist, name) {
  const load = (file) => import(pathToFileURL(path.join(path.resolve(dist), file)).href);
  const { replaceIfUnchanged } = await load('vault/guarded-replace.js');
  const { diskStateOf } = await load('vault/file-fingerprint.js');
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), `save-cpu-${name}-`));
  const target = path.join(folder, 'note.md');
  const body = 'x'.repeat(10 * 1024 - 40) + '\n';
  const first = Buffer.from(`<!-- 0 -->\n${body}`);
  fs.writeFileSync(target, first);
  let expected = diskStateOf(fs.statSync(target, { bigint: true }), first);
  let count = 0;
  return {
    name,
    folder,
    async save() {
      const bytes = Buffer.from(`<!-- ${++count} -->\n${body}`);
      const outcome = await replaceIfUnchanged(target, bytes, expected, { onLateWrite: () => undefined });
      if (outcome.kind !== 'written') throw new Error(`${name}: the save found the file changed`);
      expected = outcome.disk;
    },
  };
}

/** One build's checkpoint store in a home of its own, its history past the slack (ADR 95, ADR 102). */
async function checkpointsAt(dist, name) {
  const { CheckpointStore } = await import(
    pathToFileURL(path.join(path.resolve(dist), 'history/checkpoint-store.js')).href
  );
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), `ckpt-cpu-${name}-`));
  const store = new CheckpointStore({ home: folder });
  const body = 'x'.repeat(10 * 1024 - 40) + '\n';
  let count = 0;
  const append = () =>
    store.append({
      tabId: 'tab-1',
      filePath: '/notes/a.md',
      tool: 'document.write',
      description: 'Wrote document',
      revisionBefore: 'rev-AAAAAAAA',
      revisionAfter: 'rev-BBBBBBBB',
      contentBefore: `<!-- ${++count} -->\n${body}`,
    });
  for (let i = 0; i < 600; i++) await append();
  return { name, folder, save: append };
}

if (!['save', 'checkpoint'].includes(values.part))
  throw new Error(`--part is save or checkpoint, not ${values.part}`);
const makeBuild = values.part === 'checkpoint' ? checkpointsAt : buildAt;
const builds = [await makeBuild(here, 'this'), await makeBuild(values.baseline, 'baseline')];
// Untimed first: both compiled and their folders warm.
for (const build of builds) for (let i = 0; i < block; i++) await build.save();

const cpu = { this: [], baseline: [] };
for (let round = 0; round < rounds; round++) {
  const order = round % 2 === 0 ? builds : [...builds].reverse();
  for (const build of order) {
    const start = process.cpuUsage();
    for (let i = 0; i < block; i++) await build.save();
    const used = process.cpuUsage(start);
    cpu[build.name].push((used.user + used.system) / block);
  }
}
const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
const paired = cpu.this.map((value, i) => value / cpu.baseline[i]);
console.log(
  `${values.part} CPU (µs each, median of ${rounds} blocks of ${block}): this ${median(cpu.this).toFixed(0)}, ` +
    `baseline ${median(cpu.baseline).toFixed(0)}; this / baseline per block pair, median ${median(paired).toFixed(3)} ` +
    `(min ${Math.min(...paired).toFixed(3)}, max ${Math.max(...paired).toFixed(3)}); load ${os.loadavg()[0].toFixed(1)}`,
);
for (const build of builds) fs.rmSync(build.folder, { recursive: true, force: true });
