import { mkdtemp, readdir, realpath, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CaptureRequest } from '../capture/plan-capture.js';
import { assignIdentity } from '../kernel/identity/index.js';
import { isKind, readLedger } from '../kernel/ledger/index.js';
import { GrantRecord } from '../delegation/grant-record.js';
import { CoherenceWorkspace } from './coherence-workspace.js';

const WRITER = '0190a000-0000-7000-8000-00000000000a';
const NOTES = '0190a000-0000-7000-8000-0000000000a1';
const SUMMARY = '0190a000-0000-7000-8000-0000000000b2';

let root: string;
let coherence: CoherenceWorkspace;
beforeEach(async () => {
  root = await realpath(await mkdtemp(path.join(os.tmpdir(), 'vmark-coherence-ws-')));
  coherence = new CoherenceWorkspace(root, WRITER, new GrantRecord(path.join(root, 'home')));
});
afterEach(async () => {
  coherence.dispose();
  await rm(root, { recursive: true, force: true });
});

const notes = assignIdentity('# Notes\n', NOTES);
const summaryAt = (n: number) => assignIdentity(`# Summary ${n}\n`, SUMMARY);

/** The summary's write number `n`, made from the notes. */
function write(n: number): CaptureRequest {
  return {
    output: { path: 'summary.md', text: summaryAt(n) },
    before: n === 1 ? null : summaryAt(n - 1),
    inputs: [{ path: 'notes.md', text: notes }],
    agent: { type: 'model', id: 'test' },
    intent: { kind: 'mcp-write', summary: `write ${n}` },
    confidence: 'inferred',
  };
}

describe('CoherenceWorkspace.capture', () => {
  it('records writes that arrive together in order, each revision the child of the one before', async () => {
    await writeFile(path.join(root, 'notes.md'), notes);
    await writeFile(path.join(root, 'summary.md'), summaryAt(1));
    const counts = await Promise.all([1, 2, 3, 4, 5].map((n) => coherence.capture(write(n))));
    expect(counts[0]).toBeGreaterThan(1); // registrations and the notes as found, then the write
    expect(counts.slice(1)).toEqual([1, 1, 1, 1]);

    const { entries } = await readLedger(path.join(root, '.vmark'));
    const writes = entries.flatMap((e) =>
      isKind(e, 'transformation') && e.body.agent.type === 'model' ? [e.body] : [],
    );
    expect(writes.map((w) => w.intent.summary)).toEqual([
      'write 1',
      'write 2',
      'write 3',
      'write 4',
      'write 5',
    ]);
    for (let i = 1; i < writes.length; i++)
      expect(writes[i]!.outputs[0]!.parents).toEqual([writes[i - 1]!.outputs[0]!.revision]);
    // One segment, appended to once per batch: no stray files.
    expect(await readdir(path.join(root, '.vmark', 'ledger'))).toEqual([`${WRITER}.jsonl`]);
  });

  it('fails only the write that cannot be recorded when it arrives with others', async () => {
    await writeFile(path.join(root, 'notes.md'), notes);
    await writeFile(path.join(root, 'summary.md'), summaryAt(1));
    // A second file carrying the summary's id: which one is the object is a person's call.
    await writeFile(path.join(root, 'copy.md'), summaryAt(1));
    const other: CaptureRequest = {
      ...write(1),
      output: { path: 'notes.md', text: assignIdentity('# Notes, edited\n', NOTES) },
      before: notes,
      inputs: [],
    };
    const [held, fine] = await Promise.allSettled([coherence.capture(write(1)), coherence.capture(other)]);
    expect(held).toMatchObject({ status: 'rejected', reason: { message: /capture held: / } });
    expect(fine).toMatchObject({ status: 'fulfilled' });
  });
});
