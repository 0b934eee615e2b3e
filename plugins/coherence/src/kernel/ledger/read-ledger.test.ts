import { appendFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { appendEntry } from './append-entry.js';
import { readLedger } from './read-ledger.js';

/*
 * Hand-written ledger lines, as another implementation would have written them. Literal (not
 * produced by this module's writer) so the tests pin the on-disk format itself.
 */
const WRITER_A = '0190a000-0000-7000-8000-00000000000a';
const WRITER_B = '0190a000-0000-7000-8000-00000000000b';

/** Writer A, 09:30:12.415: a model derives object …0002 from a direct read of object …0001. */
const A1 =
  '{"format":0,"id":"0190a000-0001-7000-8000-000000000001","kind":"transformation","time":"2026-07-18T09:30:12.415Z","writer":"0190a000-0000-7000-8000-00000000000a","idem":"0190a000-0001-7000-8000-0000000000e1","body":{"inputs":[{"object":"0190a000-00b1-7000-8000-000000000001","revision":"rev1:aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa","role":"direct"}],"outputs":[{"object":"0190a000-00b1-7000-8000-000000000002","revision":"rev1:bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb","content_hash":"sha256:1111111111111111111111111111111111111111111111111111111111111111","parents":[]}],"agent":{"type":"model","id":"claude"},"intent":{"kind":"generate","summary":"draft chapter"},"confidence":"inferred"}}';

/** Writer A, 09:31:00.000: a git navigation. */
const A2 =
  '{"format":0,"id":"0190a000-0003-7000-8000-000000000003","kind":"navigation","time":"2026-07-18T09:31:00.000Z","writer":"0190a000-0000-7000-8000-00000000000a","idem":"0190a000-0003-7000-8000-0000000000e3","body":{"git":{"op":"checkout","from":"cccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccc","to":"dddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddd","ref":"main"}}}';

/** Writer B, 09:30:30.000 (between A1 and A2): a human ratification. */
const B1 =
  '{"format":0,"id":"0190a000-0002-7000-8000-000000000002","kind":"ratification","time":"2026-07-18T09:30:30.000Z","writer":"0190a000-0000-7000-8000-00000000000b","idem":"0190a000-0002-7000-8000-0000000000e2","body":{"edge":{"txf":"0190a000-0001-7000-8000-000000000001","input":0},"upstream_object":"0190a000-00b1-7000-8000-000000000001","pinned":"rev1:aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa","resolved_against":"rev1:eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee","actor":{"type":"human","id":"elena"},"reason":null,"expires":null}}';

/** Writer B, 09:32:00.000, same idem as A2 (a retried act seen from another machine). */
const B2_SAME_IDEM_AS_A2_LATER =
  '{"format":0,"id":"0190a000-0004-7000-8000-000000000004","kind":"navigation","time":"2026-07-18T09:32:00.000Z","writer":"0190a000-0000-7000-8000-00000000000b","idem":"0190a000-0003-7000-8000-0000000000e3","body":{"git":{"op":"reset","from":"dddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddd","to":"cccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccc","ref":"main"}}}';

/** Writer B, same time as A2 and same idem, but a smaller id: this one must win. */
const B3_SAME_IDEM_AS_A2_SMALLER_ID =
  '{"format":0,"id":"0190a000-0000-7000-8000-000000000009","kind":"navigation","time":"2026-07-18T09:31:00.000Z","writer":"0190a000-0000-7000-8000-00000000000b","idem":"0190a000-0003-7000-8000-0000000000e3","body":{"git":{"op":"detach","from":"dddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddd","to":"cccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccc"}}}';

/** Writer A at the same instant as B1 written with an offset (+02:00), and a larger id. */
const A_OFFSET_SAME_INSTANT_AS_B1 =
  '{"format":0,"id":"0190a000-0002-7000-8000-00000000000f","kind":"diagnostic","time":"2026-07-18T11:30:30+02:00","writer":"0190a000-0000-7000-8000-00000000000a","idem":"0190a000-0002-7000-8000-0000000000ef","body":{"code":"duplicate-id","paths":["a.md","b.md"]}}';

/** A kind this implementation has no schema for; its body must come through untouched. */
const UNKNOWN_KIND =
  '{"format":0,"id":"0190a000-0005-7000-8000-000000000005","kind":"anchor-moved","time":"2026-07-18T09:33:00.000Z","writer":"0190a000-0000-7000-8000-00000000000a","idem":"0190a000-0005-7000-8000-0000000000e5","body":{"anchor":"#elena","to":[1,2,{"x":null}]},"extra":"kept"}';

const FUTURE_FORMAT =
  '{"format":1,"id":"whatever-a-later-format-says","kind":"transformation","time":"tomorrow","writer":"?","idem":"?","body":[]}';

/** A known kind whose body breaks the schema: a transformation with no outputs. */
const EMPTY_OUTPUTS =
  '{"format":0,"id":"0190a000-0006-7000-8000-000000000006","kind":"transformation","time":"2026-07-18T09:34:00.000Z","writer":"0190a000-0000-7000-8000-00000000000a","idem":"0190a000-0006-7000-8000-0000000000e6","body":{"inputs":[],"outputs":[],"agent":{"type":"human"},"intent":{"kind":"edit","summary":""},"confidence":"exact"}}';

/** A waiver with a blank reason. */
const BLANK_WAIVER =
  '{"format":0,"id":"0190a000-0007-7000-8000-000000000007","kind":"waiver","time":"2026-07-18T09:35:00.000Z","writer":"0190a000-0000-7000-8000-00000000000a","idem":"0190a000-0007-7000-8000-0000000000e7","body":{"edge":{"txf":"0190a000-0001-7000-8000-000000000001","input":0},"upstream_object":"0190a000-00b1-7000-8000-000000000001","pinned":"rev1:aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa","resolved_against":"rev1:eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee","actor":{"type":"human","id":"elena"},"reason":"   ","expires":null}}';

/** An agent ratification that names no delegation grant. */
const UNDELEGATED_AGENT =
  '{"format":0,"id":"0190a000-0008-7000-8000-000000000008","kind":"ratification","time":"2026-07-18T09:36:00.000Z","writer":"0190a000-0000-7000-8000-00000000000a","idem":"0190a000-0008-7000-8000-0000000000e8","body":{"edge":{"txf":"0190a000-0001-7000-8000-000000000001","input":0},"upstream_object":"0190a000-00b1-7000-8000-000000000001","pinned":"rev1:aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa","resolved_against":"rev1:eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee","actor":{"type":"agent","id":"claude-code"},"reason":null,"expires":null}}';

/** Envelope without `idem`. */
const NO_IDEM =
  '{"format":0,"id":"0190a000-0009-7000-8000-000000000009","kind":"diagnostic","time":"2026-07-18T09:37:00.000Z","writer":"0190a000-0000-7000-8000-00000000000a","body":{}}';

const NOT_JSON = '{"format":0,"id":';

/** The first bytes of a line whose write was interrupted. */
const TORN = '{"format":0,"id":"0190a000-00ff-7000-8000-0000000000ff","kind":"navi';

let vmark: string;
beforeEach(async () => {
  vmark = join(await mkdtemp(join(tmpdir(), 'vmark-ledger-')), '.vmark');
});
afterEach(async () => {
  await rm(join(vmark, '..'), { recursive: true, force: true });
});

async function segment(name: string, ...lines: string[]): Promise<void> {
  await mkdir(join(vmark, 'ledger'), { recursive: true });
  await writeFile(join(vmark, 'ledger', name), lines.join(''));
}

const ids = (entries: { id: string }[]) => entries.map((e) => e.id);

describe('readLedger', () => {
  it('reads nothing, and creates nothing, when there is no ledger', async () => {
    expect(await readLedger(vmark, { writeQuarantine: true })).toEqual({
      entries: [],
      quarantined: 0,
      futureFormat: 0,
      segments: [],
    });
  });

  it("merges two writers' segments and orders them by (time, id)", async () => {
    await segment(`${WRITER_A}.jsonl`, `${A1}\n`, `${A2}\n`);
    await segment(`${WRITER_B}.jsonl`, `${B1}\n`);
    // Same instant as B1 spelled with an offset, and a larger id: sorts right after B1.
    await segment(`${WRITER_A}-001.jsonl`, `${A_OFFSET_SAME_INSTANT_AS_B1}\n`);
    const read = await readLedger(vmark);
    expect(read.segments).toEqual([`${WRITER_A}-001.jsonl`, `${WRITER_A}.jsonl`, `${WRITER_B}.jsonl`]);
    expect(ids(read.entries)).toEqual([
      '0190a000-0001-7000-8000-000000000001',
      '0190a000-0002-7000-8000-000000000002',
      '0190a000-0002-7000-8000-00000000000f',
      '0190a000-0003-7000-8000-000000000003',
    ]);
    expect(read.quarantined).toBe(0);
  });

  it('keeps the smallest (time, id) of entries sharing an idem', async () => {
    await segment(`${WRITER_A}.jsonl`, `${A2}\n`);
    await segment(`${WRITER_B}.jsonl`, `${B2_SAME_IDEM_AS_A2_LATER}\n`);
    expect(ids((await readLedger(vmark)).entries)).toEqual(['0190a000-0003-7000-8000-000000000003']);

    await segment(`${WRITER_B}.jsonl`, `${B2_SAME_IDEM_AS_A2_LATER}\n`, `${B3_SAME_IDEM_AS_A2_SMALLER_ID}\n`);
    const read = await readLedger(vmark);
    expect(ids(read.entries)).toEqual(['0190a000-0000-7000-8000-000000000009']);
    expect(read.entries[0]?.body).toEqual({
      git: { op: 'detach', from: 'd'.repeat(64), to: 'c'.repeat(64) },
    });
  });

  it('ignores a torn last line without quarantining it', async () => {
    await segment(`${WRITER_A}.jsonl`, `${A1}\n`, TORN);
    const read = await readLedger(vmark, { writeQuarantine: true });
    expect(ids(read.entries)).toEqual(['0190a000-0001-7000-8000-000000000001']);
    expect(read.quarantined).toBe(0);
    await expect(readFile(join(vmark, 'ledger', 'quarantine', `${WRITER_A}.bad`))).rejects.toThrow();
  });

  it('quarantines a malformed line once, however often the ledger is read', async () => {
    await segment(`${WRITER_A}.jsonl`, `${A1}\n`, `${NOT_JSON}\n`, `${A2}\n`, `${NO_IDEM}\n`);
    for (let i = 0; i < 3; i++) {
      const read = await readLedger(vmark, { writeQuarantine: true });
      expect(read.quarantined).toBe(2);
      expect(read.entries).toHaveLength(2);
    }
    const bad = await readFile(join(vmark, 'ledger', 'quarantine', `${WRITER_A}.bad`), 'utf8');
    expect(bad).toBe(
      `# line 2, invalid JSON\n${NOT_JSON}\n` +
        `# line 4, invalid envelope at idem: Invalid input: expected string, received undefined\n${NO_IDEM}\n`,
    );
  });

  it('does not write quarantine unless asked (a pure read)', async () => {
    await segment(`${WRITER_A}.jsonl`, `${NOT_JSON}\n`);
    expect((await readLedger(vmark)).quarantined).toBe(1);
    await expect(readFile(join(vmark, 'ledger', 'quarantine', `${WRITER_A}.bad`))).rejects.toThrow();
  });

  it('quarantines invalid UTF-8 and keeps its bytes as found', async () => {
    await mkdir(join(vmark, 'ledger'), { recursive: true });
    const raw = Buffer.from([0x7b, 0xff, 0xfe, 0x7d, 0x0a]);
    await writeFile(join(vmark, 'ledger', `${WRITER_A}.jsonl`), raw);
    expect((await readLedger(vmark, { writeQuarantine: true })).quarantined).toBe(1);
    const bad = await readFile(join(vmark, 'ledger', 'quarantine', `${WRITER_A}.bad`));
    expect(bad).toEqual(Buffer.concat([Buffer.from('# line 1, invalid UTF-8\n'), raw]));
  });

  it('counts a future-format line without quarantining it', async () => {
    await segment(`${WRITER_B}.jsonl`, `${FUTURE_FORMAT}\n`, `${B1}\n`);
    const read = await readLedger(vmark, { writeQuarantine: true });
    expect(read).toMatchObject({ futureFormat: 1, quarantined: 0 });
    expect(ids(read.entries)).toEqual(['0190a000-0002-7000-8000-000000000002']);
    await expect(readFile(join(vmark, 'ledger', 'quarantine', `${WRITER_B}.bad`))).rejects.toThrow();
  });

  it('preserves an entry of an unknown kind, body and extra fields included', async () => {
    await segment(`${WRITER_A}.jsonl`, `${UNKNOWN_KIND}\n`);
    const [entry] = (await readLedger(vmark)).entries;
    expect(entry).toEqual(JSON.parse(UNKNOWN_KIND));
  });

  it('quarantines known kinds whose bodies break their schema', async () => {
    await segment(`${WRITER_A}.jsonl`, `${EMPTY_OUTPUTS}\n`, `${BLANK_WAIVER}\n`, `${UNDELEGATED_AGENT}\n`);
    const read = await readLedger(vmark, { writeQuarantine: true });
    expect(read).toMatchObject({ entries: [], quarantined: 3 });
    const bad = await readFile(join(vmark, 'ledger', 'quarantine', `${WRITER_A}.bad`), 'utf8');
    expect(bad.split('\n').filter((l) => l.startsWith('# line '))).toEqual([
      '# line 1, invalid transformation body at outputs: a transformation must have at least one output',
      '# line 2, invalid waiver body at reason: must not be blank',
      '# line 3, invalid ratification body at delegation: a non-human actor must carry delegation',
    ]);
  });

  it('quarantines a line over the length bound on read', async () => {
    await segment(`${WRITER_A}.jsonl`, `${A1}\n`, `${A2}\n`);
    const read = await readLedger(vmark, { maxLineBytes: A2.length });
    expect(read.quarantined).toBe(1);
    expect(ids(read.entries)).toEqual(['0190a000-0003-7000-8000-000000000003']);
  });

  it('still answers when the quarantine cannot be written', async () => {
    await segment(`${WRITER_A}.jsonl`, `${A1}\n`, `${NOT_JSON}\n`);
    // A file where the quarantine directory should be makes every quarantine write fail.
    await writeFile(join(vmark, 'ledger', 'quarantine'), 'in the way');
    const read = await readLedger(vmark, { writeQuarantine: true });
    expect(read).toMatchObject({ quarantined: 1, futureFormat: 0 });
    expect(read.entries).toHaveLength(1);
  });

  it('reads a torn tail that the next append repaired: torn bytes become a quarantined line', async () => {
    await segment(`${WRITER_A}.jsonl`, `${A1}\n`, TORN);
    const b1AsA = B1.replace(WRITER_B, WRITER_A);
    const receipt = await appendEntry(vmark, WRITER_A, JSON.parse(b1AsA));
    expect(receipt.repairedTornTail).toBe(true);
    const text = await readFile(join(vmark, 'ledger', `${WRITER_A}.jsonl`), 'utf8');
    expect(text).toBe(`${A1}\n${TORN}\n${b1AsA}\n`);
    const read = await readLedger(vmark, { writeQuarantine: true });
    expect(read.quarantined).toBe(1);
    expect(ids(read.entries)).toEqual([
      '0190a000-0001-7000-8000-000000000001',
      '0190a000-0002-7000-8000-000000000002',
    ]);
    const bad = await readFile(join(vmark, 'ledger', 'quarantine', `${WRITER_A}.bad`), 'utf8');
    expect(bad).toBe(`# line 2, invalid JSON\n${TORN}\n`);
  });

  it('appends to a quarantine file with a torn tail on a fresh line', async () => {
    await segment(`${WRITER_A}.jsonl`, `${NOT_JSON}\n`);
    await mkdir(join(vmark, 'ledger', 'quarantine'));
    await appendFile(join(vmark, 'ledger', 'quarantine', `${WRITER_A}.bad`), '# line 9, half');
    await readLedger(vmark, { writeQuarantine: true });
    const bad = await readFile(join(vmark, 'ledger', 'quarantine', `${WRITER_A}.bad`), 'utf8');
    expect(bad).toBe(`# line 9, half\n# line 1, invalid JSON\n${NOT_JSON}\n`);
  });
});
