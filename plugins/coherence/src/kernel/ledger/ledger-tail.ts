/**
 * An incremental `readLedger` for a process that reads the same ledger again and again (the
 * MCP host answering `coherence` calls). It remembers, per segment, how far it has parsed and
 * what the file was (device, inode, size, mtime, the bytes just before that point); a refresh
 * stats the ledger folder, parses only what writers appended since, and reads everything again
 * when a segment shrank, vanished, was replaced or was rewritten in place. The result is always
 * what `readLedger` would return at that moment (same entries, order, counts and segments).
 */
import { open, stat, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { errorCode, SerialQueue } from '@vmark/sdk';
import type { LedgerEntry } from './entry.js';
import { EntryMerge, listSegments, parseSegmentLines } from './ledger-merge.js';
import { quarantineLines, type QuarantinedLine } from './quarantine.js';
import type { LedgerRead, ReadLedgerOptions } from './read-ledger.js';
import { markTail, type SegmentMark } from './segment-marks.js';
import { compareNames, ledgerDir } from './segments.js';

export interface LedgerTailRead extends LedgerRead {
  /**
   * Changes exactly when `entries` changes (a different list of entries), so a caller can
   * key derived data on it. Counts and segments may change without it. Starts at 1 after the
   * first refresh. While it is unchanged, `entries` is the very same array: never mutate it.
   */
  readonly version: number;
  /**
   * Set when this read's entries are those of version `after` with `entries` after them (the
   * common case of an append), so that derived data can be grown instead of made anew.
   */
  readonly appended?: { readonly after: number; readonly entries: readonly LedgerEntry[] };
}

/** Bytes before the parsed offset compared on each growth, to notice a rewritten file. */
const TAIL_CHECK_BYTES = 64;

interface SegmentState {
  dev: bigint;
  ino: bigint;
  /** File size when last examined (a torn tail included). */
  size: bigint;
  mtimeNs: bigint;
  /** Offset just after the last complete line parsed. */
  parsed: number;
  /** The `TAIL_CHECK_BYTES` (or fewer) bytes before `parsed`. */
  tail: Buffer;
  /** Complete lines so far, so line numbers continue across refreshes. */
  lines: number;
  quarantined: number;
  futureFormat: number;
  /** Malformed lines whose quarantine write failed, retried on the next refresh. */
  unwritten: QuarantinedLine[];
}

interface Pass extends LedgerRead {
  /** Whether the merge's list differs from its previous one. */
  readonly changed: boolean;
  readonly appended?: readonly LedgerEntry[];
}

/** Thrown inside a refresh when only a full read can tell what the ledger holds now. */
class Reread extends Error {}

export class LedgerTail {
  private readonly dir: string;
  private segments = new Map<string, SegmentState>();
  private merge = new EntryMerge();
  private last: LedgerTailRead | null = null;
  private version = 0;
  private readonly queue = new SerialQueue();

  constructor(
    private readonly vmarkDir: string,
    private readonly options: ReadLedgerOptions = {},
  ) {
    this.dir = ledgerDir(vmarkDir);
  }

  /** The result of the last refresh, or null before the first one. */
  get current(): LedgerTailRead | null {
    return this.last;
  }

  /**
   * Brings the reading up to date with the disk. Concurrent calls run one after another.
   * `onSegment` is called as each segment has been read (unchanged ones at once).
   */
  refresh(onSegment?: (done: number, total: number) => void): Promise<LedgerTailRead> {
    return this.queue.run(() => this.refreshNow(onSegment));
  }

  /** Where the last refresh stopped in each segment, in name order (see `segmentsMatch`). */
  marks(): SegmentMark[] {
    return [...this.segments]
      .sort(([a], [b]) => compareNames(a, b))
      .map(([name, state]) => ({
        name,
        size: Number(state.size),
        parsed: state.parsed,
        tailLength: state.tail.length,
        tail: markTail(state.tail),
      }));
  }

  /** Forgets everything: the next refresh reads the whole ledger (its version still moves on only on change). */
  reset(): void {
    this.segments = new Map();
    this.merge = new EntryMerge();
  }

  private async refreshNow(onSegment?: (done: number, total: number) => void): Promise<LedgerTailRead> {
    const previous = this.last;
    let pass: Pass;
    let reread = false;
    try {
      pass = await this.pass(onSegment);
    } catch (error) {
      this.reset();
      if (!(error instanceof Reread)) throw error;
      reread = true;
      try {
        pass = await this.pass(onSegment);
      } catch (again) {
        this.reset();
        throw again;
      }
    }
    let { entries } = pass;
    const changed =
      previous === null ||
      (reread
        ? entries.length !== previous.entries.length ||
          !entries.every((entry, i) => isDeepStrictEqual(entry, previous.entries[i]))
        : pass.changed);
    const after = this.version;
    if (changed) this.version += 1;
    else entries = previous.entries;
    const { quarantined, futureFormat, segments } = pass;
    const appended =
      // The length check covers a merge reset by a failed refresh: its list started over.
      changed &&
      !reread &&
      previous !== null &&
      pass.appended !== undefined &&
      entries.length === previous.entries.length + pass.appended.length
        ? { after, entries: pass.appended }
        : undefined;
    const read: LedgerTailRead = {
      entries,
      quarantined,
      futureFormat,
      segments,
      version: this.version,
      ...(appended && { appended }),
    };
    this.last = read;
    return read;
  }

  /**
   * One pass over the ledger folder from the remembered state (a full read when there is
   * none). Throws `Reread` when a segment changed in a way appends cannot explain.
   */
  private async pass(onSegment?: (done: number, total: number) => void): Promise<Pass> {
    const names = await listSegments(this.dir);
    const present = new Set(names);
    for (const known of this.segments.keys()) if (!present.has(known)) throw new Reread();

    const toQuarantine: [string, QuarantinedLine[]][] = [];
    for (const [i, name] of names.entries()) {
      const bad = await this.advance(name);
      if (bad.length > 0) toQuarantine.push([name, bad]);
      onSegment?.(i + 1, names.length);
    }
    if (this.options.writeQuarantine === true) await this.writeQuarantine(toQuarantine);

    let quarantined = 0;
    let futureFormat = 0;
    for (const state of this.segments.values()) {
      quarantined += state.quarantined;
      futureFormat += state.futureFormat;
    }
    const { entries, changed, appended } = this.merge.materialize();
    return { entries, changed, quarantined, futureFormat, segments: names, ...(appended && { appended }) };
  }

  /** Parses what `name` gained since the last refresh; returns its new malformed lines. */
  private async advance(name: string): Promise<QuarantinedLine[]> {
    const path = join(this.dir, name);
    const known = this.segments.get(name);
    if (known !== undefined) {
      const info = await stat(path, { bigint: true }).catch((error: unknown) => {
        if (errorCode(error) === 'ENOENT') throw new Reread();
        throw error;
      });
      if (info.dev !== known.dev || info.ino !== known.ino || info.size < known.size) throw new Reread();
      if (info.size === known.size) {
        // Same size and mtime: untouched. Same size, other mtime: rewritten in place, or touched.
        if (info.mtimeNs === known.mtimeNs) return known.unwritten;
        throw new Reread();
      }
    }

    let handle: FileHandle;
    try {
      handle = await open(path, 'r');
    } catch (error) {
      // Listed a moment ago and gone now: let a full read decide what the ledger is.
      if (known !== undefined && errorCode(error) === 'ENOENT') throw new Reread();
      throw error;
    }
    try {
      const info = await handle.stat({ bigint: true });
      if (
        known !== undefined &&
        (info.dev !== known.dev || info.ino !== known.ino || info.size < known.size)
      ) {
        throw new Reread();
      }
      const parsed = known?.parsed ?? 0;
      const check = known?.tail.length ?? 0;
      const from = parsed - check;
      const length = Number(info.size) - from;
      const data = Buffer.alloc(length);
      let got = 0;
      while (got < length) {
        const { bytesRead } = await handle.read(data, got, length - got, from + got);
        if (bytesRead === 0) break;
        got += bytesRead;
      }
      // Shorter than stat said: truncated while we read.
      if (got < check) throw new Reread();
      const bytes = data.subarray(0, got);
      if (known !== undefined && !bytes.subarray(0, check).equals(known.tail)) throw new Reread();

      const lines = known?.lines ?? 0;
      const chunk = parseSegmentLines(bytes.subarray(check), lines + 1, this.options);
      for (const { entry, lineNumber } of chunk.ok) this.merge.add(entry, name, lineNumber);
      const end = check + chunk.consumed;
      const state: SegmentState = {
        dev: info.dev,
        ino: info.ino,
        size: BigInt(from + got),
        mtimeNs: info.mtimeNs,
        parsed: parsed + chunk.consumed,
        tail: Buffer.from(bytes.subarray(Math.max(0, end - TAIL_CHECK_BYTES), end)),
        lines: lines + chunk.lines,
        quarantined: (known?.quarantined ?? 0) + chunk.bad.length,
        futureFormat: (known?.futureFormat ?? 0) + chunk.futureFormat,
        unwritten: known?.unwritten ?? [],
      };
      this.segments.set(name, state);
      return state.unwritten.length > 0 ? [...state.unwritten, ...chunk.bad] : chunk.bad;
    } finally {
      await handle.close();
    }
  }

  private async writeQuarantine(batches: readonly [string, QuarantinedLine[]][]): Promise<void> {
    for (const [name, bad] of batches) {
      const state = this.segments.get(name);
      try {
        await quarantineLines(this.vmarkDir, name, bad);
        if (state) state.unwritten = [];
      } catch {
        // As in readLedger: quarantine is a courtesy copy; the next refresh retries.
        if (state) state.unwritten = bad;
      }
    }
  }
}
