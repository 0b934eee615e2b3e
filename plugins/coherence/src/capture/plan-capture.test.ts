import { describe, expect, it } from 'vitest';
import { assignIdentity } from '../kernel/identity/index.js';
import type { EntryFactory, LedgerEntry } from '../kernel/ledger/index.js';
import { type CaptureRequest, planCapture, planCaptures } from './plan-capture.js';

const WRITER = '0190a000-0000-7000-8000-00000000000a';
const NOTES = '0190a000-0000-7000-8000-0000000000a1';
const SUMMARY = '0190a000-0000-7000-8000-0000000000b2';

/** The same ids and times on every run, so that two plans can be compared entry for entry. */
function factory(): EntryFactory {
  let n = 0;
  return {
    writer: WRITER,
    newId: () => `0190a000-0000-7000-8000-${String(++n).padStart(12, '0')}`,
    now: () => new Date(Date.UTC(2026, 0, 1, 0, 0, n)),
  };
}

const notes = (body: string) => ({ path: 'notes.md', text: assignIdentity(body, NOTES) });
const summary = (body: string) => ({ path: 'summary.md', text: assignIdentity(body, SUMMARY) });

function write(
  output: { path: string; text: string },
  before: string | null,
  inputs: CaptureRequest['inputs'],
): CaptureRequest {
  return {
    output,
    before,
    inputs,
    agent: { type: 'model', id: 'test' },
    intent: { kind: 'mcp-write', summary: 'document.write by test' },
    confidence: 'inferred',
  };
}

describe('planCaptures', () => {
  it('plans a run of writes as planning each after the previous one was appended would', () => {
    const requests = [
      // A summary made from the notes, then rewritten, then the notes edited from the summary
      // after someone changed them outside (their text before is one the ledger never saw).
      write(summary('v1\n'), null, [notes('first notes\n')]),
      write(summary('v2\n'), summary('v1\n').text, [notes('first notes\n')]),
      write(notes('notes from the summary\n'), notes('changed outside\n').text, [summary('v2\n')]),
      // Back to a text the summary had before: a revision the ledger knows, but not its head.
      write(summary('v1\n'), summary('v2\n').text, []),
    ];
    const batched = planCaptures([], requests, factory());

    const one = factory();
    const ledger: LedgerEntry[] = [];
    const sequential = requests.map((request) => {
      const planned = planCapture(ledger, request, one);
      ledger.push(...planned);
      return planned;
    });
    expect(batched).toEqual(sequential);
    expect(batched.map((entries) => entries.map((e) => e.kind))).toEqual([
      ['object-registered', 'transformation', 'object-registered', 'transformation'],
      ['transformation'],
      ['transformation', 'transformation'],
      ['transformation'],
    ]);
  });
});
