/**
 * What `readLedger` and `LedgerTail` share, so that a full read and an incremental one cannot
 * drift apart: listing segments, turning a segment's bytes into classified lines, and merging
 * entries from all writers (dedupe by `idem`, total order by (time, id)).
 */
import { readdir } from 'node:fs/promises';
import { parseLine, type LedgerEntry, type LineBounds } from './entry.js';
import type { QuarantinedLine } from './quarantine.js';
import { compareNames, isSegmentName } from './segments.js';
import { parseTime } from './time.js';
import { errorCode } from '@vmark/sdk';

const NEWLINE = 0x0a;
// ignoreBOM keeps a BOM in the text, so such a line fails JSON parsing as it would elsewhere.
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Segment file names under `dir` in byte-wise name order; none when `dir` does not exist. */
export async function listSegments(dir: string): Promise<string[]> {
  try {
    const found = await readdir(dir, { withFileTypes: true });
    return found
      .filter((d) => d.isFile() && isSegmentName(d.name))
      .map((d) => d.name)
      .sort(compareNames);
  } catch (error) {
    // No ledger yet: the workspace has never captured anything.
    if (errorCode(error) === 'ENOENT') return [];
    throw error;
  }
}

export interface ParsedChunk {
  /** Valid entries with their 1-based line numbers in the segment. */
  readonly ok: { readonly entry: LedgerEntry; readonly lineNumber: number }[];
  readonly bad: QuarantinedLine[];
  readonly futureFormat: number;
  /** Complete lines seen (blank ones included). */
  readonly lines: number;
  /** Bytes up to and including the last `\n`; what follows is a torn tail, possibly mid-write. */
  readonly consumed: number;
}

/**
 * Classifies the complete lines of `data`, whose first line is line `firstLineNumber` of its
 * segment. Bytes after the last `\n` are not a line yet and are left unconsumed.
 */
export function parseSegmentLines(data: Buffer, firstLineNumber: number, bounds: LineBounds): ParsedChunk {
  const ok: { entry: LedgerEntry; lineNumber: number }[] = [];
  const bad: QuarantinedLine[] = [];
  let futureFormat = 0;
  let lineNumber = firstLineNumber;
  let start = 0;
  for (let end = data.indexOf(NEWLINE); end !== -1; end = data.indexOf(NEWLINE, start)) {
    const bytes = data.subarray(start, end);
    start = end + 1;
    const at = lineNumber++;
    let text: string;
    try {
      text = utf8.decode(bytes);
    } catch {
      bad.push({ lineNumber: at, reason: 'invalid UTF-8', bytes });
      continue;
    }
    // A blank line carries nothing to lose; it is skipped rather than quarantined as noise.
    if (text.trim() === '') continue;
    const parsed = parseLine(text, at, bounds);
    if ('quarantine' in parsed) bad.push({ lineNumber: at, reason: parsed.quarantine, bytes });
    else if ('futureFormat' in parsed) futureFormat += 1;
    else ok.push({ entry: parsed.ok, lineNumber: at });
  }
  return { ok, bad, futureFormat, lines: lineNumber - firstLineNumber, consumed: start };
}

/** Where a line sits: segments in name order, then lines in file order. */
interface Position {
  readonly segment: string;
  readonly line: number;
}

function comparePositions(a: Position, b: Position): number {
  return a.segment === b.segment ? a.line - b.line : compareNames(a.segment, b.segment);
}

/** One effective entry (per `idem`), with its sort key computed once. */
interface Kept {
  entry: LedgerEntry;
  epochMs: number;
  subMsNanos: number;
  id: string;
  /** Where `entry` was read. */
  at: Position;
  /** The first valid line carrying this idem: a full read meets the idem there first. */
  first: Position;
}

function keyOf(entry: LedgerEntry): Pick<Kept, 'epochMs' | 'subMsNanos' | 'id'> {
  // The envelope schema only admits times `parseTime` reads, so the fallback is unreachable.
  const t = parseTime(entry.time) ?? { epochMs: Number.NaN, subMsNanos: 0 };
  return { epochMs: t.epochMs, subMsNanos: t.subMsNanos, id: entry.id.toLowerCase() };
}

/** `compareEntries` on precomputed keys. */
function compareKeys(a: Pick<Kept, 'epochMs' | 'subMsNanos' | 'id'>, b: typeof a): number {
  const byTime = a.epochMs - b.epochMs || a.subMsNanos - b.subMsNanos;
  if (byTime !== 0) return byTime;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/**
 * Ledger order, ties between different idems broken where a full read's stable sort breaks
 * them: by where the read first met each idem.
 */
function compareKept(a: Kept, b: Kept): number {
  return compareKeys(a, b) || comparePositions(a.first, b.first);
}

/**
 * The merged entry list, fed line by line in any order of positions. For each idem it keeps
 * the entry with the smallest (time, id) and, on a tie, the one read first; the list is in
 * (time, id) order. Fed in position order this is exactly a single pass over all segments
 * keeping the smallest (time, id) per idem followed by a stable sort, and fed later lines
 * (an incremental read) it arrives at the same list.
 */
export class EntryMerge {
  private readonly byIdem = new Map<string, Kept>();
  private sorted: Kept[] = [];
  private list: LedgerEntry[] = [];
  /** Idems new since the last `materialize`. */
  private added: Kept[] = [];
  /** Whether an already listed idem changed its entry or its first position. */
  private moved = false;

  get size(): number {
    return this.byIdem.size;
  }

  add(entry: LedgerEntry, segment: string, line: number): void {
    const at: Position = { segment, line };
    const kept = this.byIdem.get(entry.idem);
    if (kept === undefined) {
      const fresh: Kept = { entry, ...keyOf(entry), at, first: at };
      this.byIdem.set(entry.idem, fresh);
      this.added.push(fresh);
      return;
    }
    if (comparePositions(at, kept.first) < 0) {
      kept.first = at;
      this.moved = true;
    }
    const key = keyOf(entry);
    const order = compareKeys(key, kept) || comparePositions(at, kept.at);
    if (order < 0) {
      kept.entry = entry;
      kept.epochMs = key.epochMs;
      kept.subMsNanos = key.subMsNanos;
      kept.id = key.id;
      kept.at = at;
      this.moved = true;
    }
  }

  /**
   * The ordered entries. The same array as last time when nothing changed it, else a new one
   * (a list handed out earlier is never mutated).
   */
  materialize(): {
    readonly entries: LedgerEntry[];
    readonly changed: boolean;
    /** Set when the new list is the previous one with these entries after it (an append). */
    readonly appended?: readonly LedgerEntry[];
  } {
    const added = this.added.sort(compareKept);
    this.added = [];
    const last = this.sorted[this.sorted.length - 1];
    const first = added[0];
    if (!this.moved) {
      if (first === undefined) return { entries: this.list, changed: false };
      // The common case of an append: everything new sorts after everything listed.
      if (last === undefined || compareKept(last, first) < 0) {
        const appended = added.map((k) => k.entry);
        this.sorted = this.sorted.concat(added);
        this.list = this.list.concat(appended);
        return { entries: this.list, changed: true, appended };
      }
    }
    this.moved = false;
    const previous = this.list;
    this.sorted = [...this.byIdem.values()].sort(compareKept);
    const next = this.sorted.map((k) => k.entry);
    const changed = next.length !== previous.length || next.some((e, i) => e !== previous[i]);
    if (changed) this.list = next;
    return { entries: this.list, changed };
  }
}
