/**
 * Reads the merged ledger: every writer's segments, deduplicated by `idem`, in total order.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { LedgerEntry, LineBounds } from './entry.js';
import { EntryMerge, listSegments, parseSegmentLines } from './ledger-merge.js';
import { quarantineLines } from './quarantine.js';
import { ledgerDir } from './segments.js';

export interface ReadLedgerOptions extends LineBounds {
  /**
   * Append malformed lines to `ledger/quarantine/`. Off by default so that a pure read (status,
   * a workspace being opened) never writes; the paths that already write the ledger turn it on.
   */
  readonly writeQuarantine?: boolean;
}

export interface LedgerRead {
  /** Deduplicated by `idem` and ordered by (time, id). */
  readonly entries: LedgerEntry[];
  /** Malformed lines found by this read (whether or not they were written to quarantine). */
  readonly quarantined: number;
  /** Lines of a later format, which this reader skips without judging them. */
  readonly futureFormat: number;
  /** Segment file names read, in the order read. */
  readonly segments: string[];
}

export async function readLedger(vmarkDir: string, options: ReadLedgerOptions = {}): Promise<LedgerRead> {
  const dir = ledgerDir(vmarkDir);
  const segments = await listSegments(dir);
  const merge = new EntryMerge();
  let quarantined = 0;
  let futureFormat = 0;

  for (const segment of segments) {
    const data = await readFile(join(dir, segment));
    const chunk = parseSegmentLines(data, 1, options);
    for (const { entry, lineNumber } of chunk.ok) merge.add(entry, segment, lineNumber);
    futureFormat += chunk.futureFormat;
    const bad = chunk.bad;
    quarantined += bad.length;
    if (options.writeQuarantine === true && bad.length > 0) {
      try {
        await quarantineLines(vmarkDir, segment, bad);
      } catch {
        // Quarantine is a courtesy copy for humans; the read result does not depend on it, and a
        // read-only or full disk must not make the ledger unreadable. The next read retries.
      }
    }
  }

  const { entries } = merge.materialize();
  return { entries, quarantined, futureFormat, segments };
}
