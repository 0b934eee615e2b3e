/**
 * Reads the merged ledger: every writer's segments, deduplicated by `idem`, in total order.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { compareEntries, parseLine, type LedgerEntry, type LineBounds } from './entry.js';
import { quarantineLines, type QuarantinedLine } from './quarantine.js';
import { compareNames, isSegmentName, ledgerDir } from './segments.js';

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

const NEWLINE = 0x0a;
// ignoreBOM keeps a BOM in the text, so such a line fails JSON parsing as it would elsewhere.
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Complete lines of a segment. Bytes after the last `\n` are a torn tail, possibly mid-write. */
function completeLines(data: Buffer): Buffer[] {
  const lines: Buffer[] = [];
  let start = 0;
  for (let end = data.indexOf(NEWLINE); end !== -1; end = data.indexOf(NEWLINE, start)) {
    lines.push(data.subarray(start, end));
    start = end + 1;
  }
  return lines;
}

async function listSegments(dir: string): Promise<string[]> {
  try {
    const found = await readdir(dir, { withFileTypes: true });
    return found
      .filter((d) => d.isFile() && isSegmentName(d.name))
      .map((d) => d.name)
      .sort(compareNames);
  } catch (error) {
    // No ledger yet: the workspace has never captured anything.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

export async function readLedger(vmarkDir: string, options: ReadLedgerOptions = {}): Promise<LedgerRead> {
  const dir = ledgerDir(vmarkDir);
  const segments = await listSegments(dir);
  const byIdem = new Map<string, LedgerEntry>();
  let quarantined = 0;
  let futureFormat = 0;

  for (const segment of segments) {
    const data = await readFile(join(dir, segment));
    const bad: QuarantinedLine[] = [];
    completeLines(data).forEach((bytes, index) => {
      const lineNumber = index + 1;
      let text: string;
      try {
        text = utf8.decode(bytes);
      } catch {
        bad.push({ lineNumber, reason: 'invalid UTF-8', bytes });
        return;
      }
      // A blank line carries nothing to lose; it is skipped rather than quarantined as noise.
      if (text.trim() === '') return;
      const parsed = parseLine(text, lineNumber, options);
      if ('quarantine' in parsed) {
        bad.push({ lineNumber, reason: parsed.quarantine, bytes });
      } else if ('futureFormat' in parsed) {
        futureFormat += 1;
      } else {
        const kept = byIdem.get(parsed.ok.idem);
        if (kept === undefined || compareEntries(parsed.ok, kept) < 0) byIdem.set(parsed.ok.idem, parsed.ok);
      }
    });
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

  const entries = [...byIdem.values()].sort(compareEntries);
  return { entries, quarantined, futureFormat, segments };
}
