import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { appendEntries, appendEntry, LedgerAppendError } from './append-entry.js';
import { createEntry } from './entry.js';
import { readLedger } from './read-ledger.js';

const WRITER = '0190a000-0000-7000-8000-00000000000a';

/** Hand-written lines of this writer (literal, as another implementation would write them). */
const L1 =
  '{"format":0,"id":"0190a000-0001-7000-8000-000000000001","kind":"navigation","time":"2026-07-18T09:30:00.000Z","writer":"0190a000-0000-7000-8000-00000000000a","idem":"0190a000-0001-7000-8000-0000000000e1","body":{"git":{"op":"checkout","from":"cccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccc","to":"dddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddd","ref":"main"}}}';
const L2 =
  '{"format":0,"id":"0190a000-0002-7000-8000-000000000002","kind":"diagnostic","time":"2026-07-18T09:31:00.000Z","writer":"0190a000-0000-7000-8000-00000000000a","idem":"0190a000-0002-7000-8000-0000000000e2","body":{"code":"duplicate-id"}}';
const TORN = '{"format":0,"id":"0190a000-00ff-7000';

let vmark: string;
beforeEach(async () => {
  vmark = join(await mkdtemp(join(tmpdir(), 'vmark-append-')), '.vmark');
});
afterEach(async () => {
  await rm(join(vmark, '..'), { recursive: true, force: true });
});

const segmentPath = (name: string) => join(vmark, 'ledger', name);

describe('appendEntry', () => {
  it('creates ledger/ lazily and writes one newline-terminated line that reads back', async () => {
    const receipt = await appendEntry(vmark, WRITER, JSON.parse(L1));
    expect(receipt).toEqual({ segment: `${WRITER}.jsonl`, bytes: L1.length + 1, repairedTornTail: false });
    expect(await readFile(segmentPath(`${WRITER}.jsonl`), 'utf8')).toBe(`${L1}\n`);
    expect(await readdir(vmark)).toEqual(['ledger']);
    expect((await readLedger(vmark)).entries).toEqual([JSON.parse(L1)]);
  });

  it('repairs a torn tail first: the torn bytes stay and the new line starts on a fresh line', async () => {
    await mkdir(join(vmark, 'ledger'), { recursive: true });
    await writeFile(segmentPath(`${WRITER}.jsonl`), `${L1}\n${TORN}`);
    const receipt = await appendEntry(vmark, WRITER, JSON.parse(L2));
    expect(receipt.repairedTornTail).toBe(true);
    expect(await readFile(segmentPath(`${WRITER}.jsonl`), 'utf8')).toBe(`${L1}\n${TORN}\n${L2}\n`);
  });

  it('rotates once the current segment has reached the threshold, numbering after the highest', async () => {
    await mkdir(join(vmark, 'ledger'), { recursive: true });
    await writeFile(segmentPath(`${WRITER}.jsonl`), `${L1}\n`);
    const small = { rotateAtBytes: L1.length + 1 };
    expect((await appendEntry(vmark, WRITER, JSON.parse(L2), small)).segment).toBe(`${WRITER}-001.jsonl`);
    // -001 holds only L2, shorter than the threshold, so it takes the next line too.
    const L3 = createEntry(
      'diagnostic',
      { code: 'x' },
      { writer: WRITER, newId: () => '0190a000-0003-7000-8000-000000000003', now: () => new Date(0) },
    );
    expect((await appendEntry(vmark, WRITER, L3, small)).segment).toBe(`${WRITER}-001.jsonl`);
    // Now -001 is over the threshold, and a stray higher segment from before exists: next is -008.
    await writeFile(segmentPath(`${WRITER}-007.jsonl`), `${L1}\n${L1}\n`);
    await writeFile(segmentPath(`${WRITER}-0009.jsonl`), ''); // not canonical, not ours
    expect((await appendEntry(vmark, WRITER, JSON.parse(L2), small)).segment).toBe(`${WRITER}-008.jsonl`);
    const read = await readLedger(vmark);
    expect(read.segments).toEqual([
      `${WRITER}-0009.jsonl`,
      `${WRITER}-001.jsonl`,
      `${WRITER}-007.jsonl`,
      `${WRITER}-008.jsonl`,
      `${WRITER}.jsonl`,
    ]);
    // Same idem in several segments: one effective entry each.
    expect(read.entries.map((e) => e.id)).toEqual([
      '0190a000-0003-7000-8000-000000000003',
      '0190a000-0001-7000-8000-000000000001',
      '0190a000-0002-7000-8000-000000000002',
    ]);
  });

  it('rotates at 8 MiB by default', async () => {
    await mkdir(join(vmark, 'ledger'), { recursive: true });
    await writeFile(segmentPath(`${WRITER}.jsonl`), Buffer.alloc(8 * 1024 * 1024 - 1, 0x0a));
    expect((await appendEntry(vmark, WRITER, JSON.parse(L1))).segment).toBe(`${WRITER}.jsonl`);
    expect((await appendEntry(vmark, WRITER, JSON.parse(L2))).segment).toBe(`${WRITER}-001.jsonl`);
  });

  it('refuses a line over the bound and writes nothing', async () => {
    await expect(appendEntry(vmark, WRITER, JSON.parse(L1), { maxLineBytes: L1.length - 1 })).rejects.toThrow(
      LedgerAppendError,
    );
    await expect(stat(join(vmark, 'ledger'))).rejects.toThrow();
    await appendEntry(vmark, WRITER, JSON.parse(L1), { maxLineBytes: L1.length });
    expect(await readFile(segmentPath(`${WRITER}.jsonl`), 'utf8')).toBe(`${L1}\n`);
  });

  it('refuses a line over 16 MiB by default', async () => {
    const huge = { ...JSON.parse(L2), body: { code: 'x', blob: 'x'.repeat(16 * 1024 * 1024) } } as unknown;
    await expect(appendEntry(vmark, WRITER, huge)).rejects.toThrow(/exceeds 16777216 bytes/);
    await expect(stat(join(vmark, 'ledger'))).rejects.toThrow();
  });

  it('refuses invalid entries and writes nothing', async () => {
    await mkdir(join(vmark, 'ledger'), { recursive: true });
    await writeFile(segmentPath(`${WRITER}.jsonl`), `${L1}\n`);
    const base = JSON.parse(L1) as Record<string, unknown>;
    const invalid: unknown[] = [
      { ...base, body: { git: { op: 'teleport', from: 'a', to: 'b' } } }, // schema-invalid known kind
      { ...base, time: '2026-07-18T11:30:00+02:00' }, // readable, but not the write shape
      { ...base, time: '2026-07-18T09:30:00Z' }, // no millis
      { ...base, format: 1 },
      { ...base, kind: 'anchor-moved' }, // unknown kind unless allowed
      { ...base, writer: '0190a000-0000-7000-8000-00000000000b' }, // another writer's entry
      { ...base, body: { git: { op: 'checkout', from: 'a', to: Number.NaN } } },
      'not an object',
    ];
    for (const entry of invalid) {
      await expect(appendEntry(vmark, WRITER, entry)).rejects.toThrow(LedgerAppendError);
    }
    await expect(appendEntry(vmark, '../escape', JSON.parse(L1))).rejects.toThrow(/not a UUID/);
    expect(await readFile(segmentPath(`${WRITER}.jsonl`), 'utf8')).toBe(`${L1}\n`);
    expect(await readdir(join(vmark, 'ledger'))).toEqual([`${WRITER}.jsonl`]);
  });

  it('writes an unknown kind when allowed', async () => {
    const entry = { ...(JSON.parse(L2) as object), kind: 'anchor-moved', body: { anchor: '#x' } };
    await appendEntry(vmark, WRITER, entry, { allowUnknownKind: true });
    expect((await readLedger(vmark)).entries).toEqual([entry]);
  });

  it('does not interleave concurrent appends of one writer', async () => {
    let n = 0;
    const factory = {
      writer: WRITER,
      newId: () => `0190a000-0000-7000-8000-${String(++n).padStart(12, '0')}`,
      now: () => new Date('2026-07-18T09:30:00.000Z'),
    };
    const entries = Array.from({ length: 40 }, (_, i) => createEntry('diagnostic', { i }, factory));
    await Promise.all(entries.map((e) => appendEntry(vmark, WRITER, e, { rotateAtBytes: 2000 })));
    const read = await readLedger(vmark);
    expect(read).toMatchObject({ quarantined: 0 });
    expect(read.entries).toHaveLength(40);
    expect(read.segments.length).toBeGreaterThan(1);
  });
});

describe('appendEntries', () => {
  it('appends several entries in order, as one write to the current segment', async () => {
    await mkdir(join(vmark, 'ledger'), { recursive: true });
    await writeFile(segmentPath(`${WRITER}.jsonl`), `${L1}\n${TORN}`);
    const receipts = await appendEntries(vmark, WRITER, [JSON.parse(L1), JSON.parse(L2)]);
    expect(receipts).toEqual([
      { segment: `${WRITER}.jsonl`, bytes: L1.length + 1, repairedTornTail: true },
      { segment: `${WRITER}.jsonl`, bytes: L2.length + 1, repairedTornTail: false },
    ]);
    expect(await readFile(segmentPath(`${WRITER}.jsonl`), 'utf8')).toBe(`${L1}\n${TORN}\n${L1}\n${L2}\n`);
  });

  it('writes nothing when any one of them is refused', async () => {
    const foreign = { ...JSON.parse(L2), writer: '0190a000-0000-7000-8000-00000000000b' };
    await expect(appendEntries(vmark, WRITER, [JSON.parse(L1), foreign])).rejects.toBeInstanceOf(
      LedgerAppendError,
    );
    await expect(readdir(join(vmark, 'ledger'))).rejects.toThrow(/ENOENT/);
    expect(await appendEntries(vmark, WRITER, [])).toEqual([]);
  });
});
