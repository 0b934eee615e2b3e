import { spawn } from 'node:child_process';
import { appendFile, readdir, readFile, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import type * as LedgerModule from '../plugins/coherence/src/kernel/ledger/index.js';
import { REPO, TempDirs } from './support/cli.js';

const temp = new TempDirs();
afterAll(() => temp.cleanup());

const LEDGER = pathToFileURL(path.join(REPO, 'plugins/coherence/dist/kernel/ledger/index.js')).href;
const IDENTITY = pathToFileURL(path.join(REPO, 'plugins/coherence/dist/kernel/identity/index.js')).href;
const WRITER = '0198c0de-0000-7000-8000-0000000000ff';

/**
 * A writer that appends diagnostics as fast as it can and acknowledges each on stdout once
 * its fsync returned: what it acknowledged must survive any kill.
 */
const APPENDER = `
import { appendEntry, createEntry } from ${JSON.stringify(LEDGER)};
import { uuidv7 } from ${JSON.stringify(IDENTITY)};
const [vmarkDir, writer, round] = process.argv.slice(1);
const factory = { writer, newId: uuidv7, now: () => new Date() };
for (let n = 0; ; n++) {
  const entry = createEntry('diagnostic', { round: Number(round), n, pad: 'x'.repeat(n % 5000) }, factory);
  await appendEntry(vmarkDir, writer, entry, { rotateAtBytes: 32 * 1024 });
  process.stdout.write(entry.id + '\\n');
}
`;

async function appendThenKill(vmarkDir: string, round: number, afterMs: number): Promise<string[]> {
  const child = spawn(
    process.execPath,
    ['--input-type=module', '-e', APPENDER, vmarkDir, WRITER, String(round)],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  // Killed a while after its first acknowledgement, so that a slow start (a loaded machine)
  // still leaves it appending when the kill comes.
  await new Promise<void>((resolve) =>
    child.stdout.on('data', (d: Buffer) => {
      if (out === '') setTimeout(resolve, afterMs);
      out += d.toString();
    }),
  );
  child.kill('SIGKILL');
  await new Promise((r) => child.once('close', r));
  expect(err).toBe('');
  // The last line may be cut by the kill itself: only whole acknowledgements count.
  return out.split('\n').slice(0, -1);
}

it('killing a ledger writer at any moment loses no acknowledged entry and leaves every line skippable or repairable', async () => {
  const workspace = await realpath(await temp.make());
  const vmarkDir = path.join(workspace, '.vmark');
  // The built kernel: the code the appenders ran.
  const { readLedger } = (await import(LEDGER)) as typeof LedgerModule;
  const acknowledged: string[] = [];

  for (let round = 0; round < 6; round++) {
    acknowledged.push(...(await appendThenKill(vmarkDir, round, 150 + round * 40)));
    if (round === 2) {
      // A crash inside a write() (power loss) leaves half a line; simulate one.
      const dir = path.join(vmarkDir, 'ledger');
      // Into the segment written last, which the next append continues unless it is full.
      const names = (await readdir(dir)).filter((n) => n.endsWith('.jsonl'));
      const written = await Promise.all(
        names.map(async (n) => ({ n, at: (await stat(path.join(dir, n))).mtimeMs })),
      );
      const last = written.sort((a, b) => b.at - a.at)[0]!.n;
      await appendFile(path.join(dir, last), '{"format":0,"id":"0198c0de-0000-7000-8000-0000000000');
    }
    const read = await readLedger(vmarkDir);
    const ids = new Set(read.entries.map((e) => e.id));
    expect(acknowledged.filter((id) => !ids.has(id))).toEqual([]);
  }

  const read = await readLedger(vmarkDir, { writeQuarantine: true });
  expect(acknowledged.length).toBeGreaterThan(0);
  const segments = (await readdir(path.join(vmarkDir, 'ledger'))).filter((n) => n.endsWith('.jsonl'));
  expect(segments.length).toBeGreaterThan(1);
  const texts = await Promise.all(segments.map((s) => readFile(path.join(vmarkDir, 'ledger', s), 'utf8')));
  // The simulated torn line was either closed by the next append into its segment, and then
  // quarantined, or its segment was already full and rotated away, and it is still an
  // unterminated tail that readers skip. Either way it never merges into an entry.
  const unterminated = texts.filter((t) => t !== '' && !t.endsWith('\n')).length;
  expect(read.quarantined + unterminated).toBe(1);
  for (const text of texts) {
    // Terminated lines only: an unterminated tail is what the next append repairs.
    const complete = text.split('\n').slice(0, -1);
    const broken = complete.filter((l) => {
      try {
        JSON.parse(l);
        return false;
      } catch {
        return true;
      }
    });
    // At most the simulated torn line, now closed and quarantined.
    expect(broken.length).toBeLessThanOrEqual(1);
  }
});
