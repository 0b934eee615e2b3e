#!/usr/bin/env node
/**
 * Where a vmark save's time goes, step by step, next to the peer's write_file, in
 * one process on the same file system (no MCP, no stdio): a profiling aid for the
 * round-trip benchmark, not part of `npm run bench`. Needs `npm run build`.
 *
 *   node bench/profile-save-path.mjs [BYTES=10240] [ITERATIONS=300]
 *
 * The `v*` rows are the calls `HostDocumentStore#save` makes; the `w*` rows replay the
 * system calls of `writeFileAtomic` one by one (keep them in step with
 * core/vault/atomic-write.ts); the `p*` rows are the peer's write_file handler.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { assertWritable, writeFileAtomic } from '../core/dist/vault/atomic-write.js';
import { fingerprint, readFingerprint } from '../core/dist/vault/file-fingerprint.js';
import { resolveInScope } from '../core/dist/vault/resolve-in-scope.js';
import {
  readFileContent,
  setAllowedDirectories,
  validatePath,
  writeFileContent,
} from '../node_modules/@modelcontextprotocol/server-filesystem/dist/lib.js';
import { documentAt, markdownBody, markerLine } from './markdown-fixture.mjs';
import { fmtMs, summarize, table } from './stats.mjs';

const size = Number(process.argv[2] ?? 10 * 1024);
const iterations = Number(process.argv[3] ?? 300);
const warmup = Math.min(20, iterations);

const root = await fs.realpath(
  await fs.mkdtemp(path.join(process.env.BENCH_TMPDIR ?? os.tmpdir(), 'vmark-save-path-')),
);
try {
  const vmarkFile = path.join(root, 'vmark.md');
  const peerFile = path.join(root, 'peer.md');
  const body = markdownBody(size - Buffer.byteLength(markerLine(0)) - 1, 5);
  await fs.writeFile(vmarkFile, documentAt(body, 0));
  await fs.writeFile(peerFile, documentAt(body, 0));
  setAllowedDirectories([root]);
  const scope = [{ lexical: root, real: root }];

  const samples = new Map();
  let recording = false;
  const time = async (name, fn) => {
    const started = performance.now();
    const result = await fn();
    if (recording) samples.set(name, [...(samples.get(name) ?? []), performance.now() - started]);
    return result;
  };

  for (let i = 1; i <= warmup + iterations; i++) {
    recording = i > warmup;
    const content = documentAt(body, i);

    await time('V  vmark save, total', async () => {
      const target = await time('v1 vault.resolve (realpath)', () => resolveInScope(vmarkFile, scope, root));
      await time('v2 readFingerprint (stream + sha256)', () => readFingerprint(target));
      await time('v3 assertWritable (stat)', () => assertWritable(target));
      const bytes = await time('v4 Buffer.from(content)', () => Buffer.from(content, 'utf8'));
      await time('v5 writeFileAtomic', () => writeFileAtomic(target, bytes));
      await time('v6 fingerprint(bytes)', () => fingerprint(bytes));
    });

    await time('P  peer write_file, total', async () => {
      const valid = await time('p1 validatePath', () => validatePath(peerFile));
      await time('p2 writeFileContent', () => writeFileContent(valid, content));
    });

    // writeFileAtomic's system calls, one by one, on the vmark file.
    const bytes = Buffer.from(documentAt(body, -i), 'utf8');
    await time('w1 stat target', () => fs.stat(vmarkFile));
    const temp = path.join(root, `.vmark.md.${randomBytes(6).toString('hex')}.vmark-tmp`);
    const handle = await time('w2 open temp (wx)', () => fs.open(temp, 'wx'));
    await time('w3 write', () => handle.writeFile(bytes));
    const stats = await time('w4 fstat (keepIdentity)', () => handle.stat());
    await time('w5 fchmod (keepIdentity)', () => handle.chmod(stats.mode & 0o7777));
    await time('w6 fsync file', () => handle.sync());
    await time('w7 close', () => handle.close());
    await time('w8 rename', () => fs.rename(temp, vmarkFile));
    await time('w9 fsync folder (open + fsync + close)', async () => {
      const folder = await fs.open(root, 'r');
      await folder.sync();
      await folder.close();
    });

    await time('x  peer read_text_file: readFile', () => readFileContent(peerFile));
  }

  const rows = [...samples.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, values]) => {
      const s = summarize(values);
      return [name, fmtMs(s.median), fmtMs(s.p90)];
    });
  process.stdout.write(`${size} bytes, ${iterations} iterations, in ${root}\n\n`);
  process.stdout.write(`${table([['step', 'median', 'p90'], ...rows])}\n`);
} finally {
  await fs.rm(root, { recursive: true, force: true });
}
