import {
  appendFile,
  mkdir,
  mkdtemp,
  readFile,
  rename,
  rm,
  truncate,
  utimes,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { appendEntry } from './append-entry.js';
import type { LedgerEntry } from './entry.js';
import { LedgerTail, type LedgerTailRead } from './ledger-tail.js';
import { readLedger, type LedgerRead } from './read-ledger.js';

const WRITER_A = '0190a000-0000-7000-8000-00000000000a';
const WRITER_B = '0190a000-0000-7000-8000-00000000000b';
/** Sorts before the others: its segments come first in a full read. */
const WRITER_0 = '0000a000-0000-7000-8000-000000000000';
const WRITERS = [WRITER_A, WRITER_B, WRITER_0] as const;

const uuid = (n: number, tag: string): string => `0190a000-${tag}-7000-8000-${String(n).padStart(12, '0')}`;

/** A small diagnostic entry; few ids, idems and times so that ties and duplicates happen. */
function entry(writer: string, id: number, idem: number, second: number, note: number): LedgerEntry {
  return {
    format: 0,
    id: uuid(id, '0001'),
    kind: 'diagnostic',
    time: `2026-07-18T09:30:${String(second).padStart(2, '0')}.000Z`,
    writer,
    idem: uuid(idem, '00e1'),
    body: { note },
  };
}

const line = (e: unknown): string => `${JSON.stringify(e)}\n`;

let root: string;
let vmark: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'vmark-tail-'));
  vmark = join(root, '.vmark');
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const segmentPath = (name: string): string => join(vmark, 'ledger', name);
const plain = ({ entries, quarantined, futureFormat, segments }: LedgerRead): LedgerRead => ({
  entries,
  quarantined,
  futureFormat,
  segments,
});

/** Refreshes and checks the result against a fresh full read and the version rule. */
async function check(tail: LedgerTail, previous: LedgerTailRead | null): Promise<LedgerTailRead> {
  const read = await tail.refresh();
  const fresh = await readLedger(vmark);
  expect(plain(read)).toEqual(fresh);
  if (previous !== null) {
    const same = isDeepStrictEqual(previous.entries, read.entries);
    expect(read.version).toBe(same ? previous.version : previous.version + 1);
    if (same) expect(read.entries).toBe(previous.entries);
  }
  // An append is told as such only when it is one: the previous list, then these entries.
  if (read.appended !== undefined) {
    expect(read.appended.after).toBe(previous?.version);
    expect([...(previous?.entries ?? []), ...read.appended.entries]).toEqual(read.entries);
  }
  return read;
}

describe('LedgerTail', () => {
  it('reads nothing when there is no ledger, then picks up the first segment', async () => {
    const tail = new LedgerTail(vmark);
    const empty = await check(tail, null);
    expect(empty).toEqual({ entries: [], quarantined: 0, futureFormat: 0, segments: [], version: 1 });
    await appendEntry(vmark, WRITER_A, entry(WRITER_A, 1, 1, 1, 0));
    const one = await check(tail, empty);
    expect(one.version).toBe(2);
    expect(one.appended?.entries).toHaveLength(1);
    expect(tail.current).toBe(one);
  });

  it('reports each segment as it has been read, out of the segments listed', async () => {
    for (const writer of WRITERS) await appendEntry(vmark, writer, entry(writer, 1, 1, 1, 0));
    const tail = new LedgerTail(vmark);
    const reports: [number, number][] = [];
    await tail.refresh((done, total) => reports.push([done, total]));
    expect(reports).toEqual([
      [1, 3],
      [2, 3],
      [3, 3],
    ]);
  });

  it('parses only appended lines, keeps the same list while nothing changes', async () => {
    const tail = new LedgerTail(vmark);
    await appendEntry(vmark, WRITER_A, entry(WRITER_A, 1, 1, 1, 0));
    let read = await check(tail, null);
    const again = await check(tail, read);
    expect(again.entries).toBe(read.entries);
    await appendEntry(vmark, WRITER_A, entry(WRITER_A, 2, 2, 2, 0));
    read = await check(tail, again);
    expect(read.entries.map((e) => e.id)).toEqual([uuid(1, '0001'), uuid(2, '0001')]);
  });

  it('does not count a torn tail until it is completed, then reads the completed line', async () => {
    const tail = new LedgerTail(vmark);
    await appendEntry(vmark, WRITER_A, entry(WRITER_A, 1, 1, 1, 0));
    const whole = line(entry(WRITER_A, 2, 2, 2, 0));
    await appendFile(segmentPath(`${WRITER_A}.jsonl`), whole.slice(0, 40));
    let read = await check(tail, null);
    expect(read).toMatchObject({ quarantined: 0 });
    expect(read.entries).toHaveLength(1);
    await appendFile(segmentPath(`${WRITER_A}.jsonl`), whole.slice(40, 80));
    read = await check(tail, read);
    await appendFile(segmentPath(`${WRITER_A}.jsonl`), whole.slice(80));
    read = await check(tail, read);
    expect(read.entries).toHaveLength(2);
  });

  it('quarantines a torn tail the next append closed, with its line number', async () => {
    const tail = new LedgerTail(vmark, { writeQuarantine: true });
    await appendEntry(vmark, WRITER_A, entry(WRITER_A, 1, 1, 1, 0));
    await appendFile(segmentPath(`${WRITER_A}.jsonl`), '{"format":0,"id":');
    let read = await check(tail, null);
    await appendEntry(vmark, WRITER_A, entry(WRITER_A, 2, 2, 2, 0));
    read = await check(tail, read);
    expect(read.quarantined).toBe(1);
    const bad = await readFile(join(vmark, 'ledger', 'quarantine', `${WRITER_A}.bad`), 'utf8');
    expect(bad).toBe('# line 2, invalid JSON\n{"format":0,"id":\n');
  });

  it('retries a quarantine write that failed', async () => {
    const tail = new LedgerTail(vmark, { writeQuarantine: true });
    await mkdir(join(vmark, 'ledger'), { recursive: true });
    await writeFile(segmentPath(`${WRITER_A}.jsonl`), 'not json\n');
    await writeFile(join(vmark, 'ledger', 'quarantine'), 'in the way');
    let read = await check(tail, null);
    expect(read.quarantined).toBe(1);
    await rm(join(vmark, 'ledger', 'quarantine'));
    read = await check(tail, read);
    const bad = await readFile(join(vmark, 'ledger', 'quarantine', `${WRITER_A}.bad`), 'utf8');
    expect(bad).toBe('# line 1, invalid JSON\nnot json\n');
  });

  it('keeps the version when a full re-read finds the same entries', async () => {
    const tail = new LedgerTail(vmark);
    await appendEntry(vmark, WRITER_A, entry(WRITER_A, 1, 1, 1, 0));
    const first = await check(tail, null);
    // Replaced by an identical copy (another inode): forces a full re-read.
    const path = segmentPath(`${WRITER_A}.jsonl`);
    await writeFile(`${path}.tmp`, await readFile(path));
    await rename(`${path}.tmp`, path);
    const second = await check(tail, first);
    expect(second.version).toBe(first.version);
    expect(second.entries).toBe(first.entries);
  });

  it('reads again when a segment shrinks, disappears or is touched in place', async () => {
    const tail = new LedgerTail(vmark);
    await appendEntry(vmark, WRITER_A, entry(WRITER_A, 1, 1, 1, 0));
    await appendEntry(vmark, WRITER_A, entry(WRITER_A, 2, 2, 2, 0));
    await appendEntry(vmark, WRITER_B, entry(WRITER_B, 3, 3, 3, 0));
    let read = await check(tail, null);
    await truncate(segmentPath(`${WRITER_A}.jsonl`), line(entry(WRITER_A, 1, 1, 1, 0)).length);
    read = await check(tail, read);
    expect(read.entries).toHaveLength(2);
    await utimes(segmentPath(`${WRITER_B}.jsonl`), new Date(1_000_000), new Date(1_000_000));
    read = await check(tail, read);
    await rm(segmentPath(`${WRITER_B}.jsonl`));
    read = await check(tail, read);
    expect(read.entries).toHaveLength(1);
  });

  it('notices a segment rewritten in place to something longer (same inode, other bytes)', async () => {
    const tail = new LedgerTail(vmark);
    await appendEntry(vmark, WRITER_A, entry(WRITER_A, 1, 1, 1, 0));
    let read = await check(tail, null);
    await writeFile(
      segmentPath(`${WRITER_A}.jsonl`),
      line(entry(WRITER_A, 1, 1, 1, 7)) + line(entry(WRITER_A, 2, 2, 2, 0)),
    );
    read = await check(tail, read);
    expect(read.entries[0]?.body).toEqual({ note: 7 });
  });

  it('serializes concurrent refreshes', async () => {
    const tail = new LedgerTail(vmark);
    for (let i = 0; i < 5; i++) await appendEntry(vmark, WRITER_A, entry(WRITER_A, i, i, i, 0));
    const [a, b] = await Promise.all([tail.refresh(), tail.refresh()]);
    expect(a.version).toBe(1);
    expect(b).toEqual(a);
    expect(plain(b)).toEqual(await readLedger(vmark));
  });

  type Op =
    | { op: 'append'; writer: number; id: number; idem: number; second: number; note: number }
    | { op: 'raw'; writer: number; text: string }
    | { op: 'torn'; writer: number; id: number; idem: number; second: number; cut: number }
    | { op: 'replace'; writer: number; keep: number }
    | { op: 'drop'; writer: number }
    | { op: 'refresh' };

  const writer = fc.nat(WRITERS.length - 1);
  const small = fc.nat(3);
  const opArb: fc.Arbitrary<Op> = fc.oneof(
    {
      weight: 8,
      arbitrary: fc.record({
        op: fc.constant('append' as const),
        writer,
        id: small,
        idem: small,
        second: small,
        note: fc.nat(3),
      }),
    },
    {
      weight: 2,
      arbitrary: fc.record({
        op: fc.constant('raw' as const),
        writer,
        text: fc.constantFrom(
          'not json\n',
          '\n',
          '   \n',
          '{"format":1,"anything":true}\n',
          '{"format":0,"id":"x"}\n',
          '{"format":0,"id":"0190a000-0009-7000-8000-000000000009","kind":"anchor-moved","time":"2026-07-18T09:30:05+02:00","writer":"0190a000-0000-7000-8000-00000000000a","idem":"0190a000-00e1-7000-8000-000000000003","body":{"x":[1]}}\n',
        ),
      }),
    },
    {
      weight: 2,
      arbitrary: fc.record({
        op: fc.constant('torn' as const),
        writer,
        id: small,
        idem: small,
        second: small,
        cut: fc.nat(200),
      }),
    },
    { weight: 1, arbitrary: fc.record({ op: fc.constant('replace' as const), writer, keep: fc.nat(3) }) },
    { weight: 1, arbitrary: fc.record({ op: fc.constant('drop' as const), writer }) },
    { weight: 4, arbitrary: fc.constant({ op: 'refresh' as const }) },
  );

  /** The writer's newest segment (the one appendEntry would write). */
  async function newestSegment(w: string): Promise<string> {
    const { segments } = await readLedger(vmark);
    const mine = segments.filter((s) => s.startsWith(w));
    return mine.sort().at(-1) ?? `${w}.jsonl`;
  }

  it('equals a fresh readLedger after any sequence of appends, rotations, damage and rewrites', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 30 }), async (ops) => {
        await rm(vmark, { recursive: true, force: true });
        await mkdir(join(vmark, 'ledger'), { recursive: true });
        const tail = new LedgerTail(vmark);
        let read: LedgerTailRead | null = null;
        for (const op of ops) {
          if (op.op === 'refresh') {
            read = await check(tail, read);
            continue;
          }
          const w = WRITERS[op.writer] ?? WRITER_A;
          const path = segmentPath(await newestSegment(w));
          switch (op.op) {
            case 'append':
              // A low rotation threshold, so segments rotate every few lines.
              await appendEntry(vmark, w, entry(w, op.id, op.idem, op.second, op.note), {
                rotateAtBytes: 600,
              });
              break;
            case 'raw':
              await appendFile(path, op.text);
              break;
            case 'torn': {
              // Half a line now; the rest maybe later (another torn op on the same segment
              // completes nothing, an append closes it with `\n`).
              const text = line(entry(w, op.id, op.idem, op.second, 9));
              await appendFile(path, text.slice(0, Math.min(op.cut, text.length - 1)));
              break;
            }
            case 'replace': {
              // A rewrite to a shorter prefix through a new file (another inode), as a git
              // checkout would leave it.
              const bytes = await readFile(path).catch(() => Buffer.alloc(0));
              const lines = bytes.toString('utf8').split('\n');
              await writeFile(
                `${path}.tmp`,
                lines
                  .slice(0, op.keep)
                  .map((l) => `${l}\n`)
                  .join(''),
              );
              await rename(`${path}.tmp`, path);
              break;
            }
            case 'drop':
              await rm(path, { force: true });
              break;
          }
        }
        await check(tail, read);
      }),
      { seed: 20260718, numRuns: 100 },
    );
  }, 60_000);
});
