/**
 * Appends entries to this writer's current segment. The ledger is append-only: there is
 * deliberately no API here to rewrite or delete a line.
 */
import { mkdir, open, readdir, stat } from 'node:fs/promises';
import { resolve, join } from 'node:path';
import { errorCode, KeyedQueue } from '@vmark/sdk';
import { uuidString } from './bodies.js';
import { serializeEntry, type WriteRules } from './entry.js';
import { ledgerDir, ROTATE_AT_BYTES, segmentName, segmentRotation } from './segments.js';

export interface AppendOptions extends WriteRules {
  /** A segment at or above this size is left for the next one; defaults to 8 MiB. */
  readonly rotateAtBytes?: number;
}

export interface AppendReceipt {
  /** File name of the segment written, under `ledger/`. */
  readonly segment: string;
  /** Bytes of the entry's line, including its `\n`. */
  readonly bytes: number;
  /** Whether a torn tail was closed with `\n` before the line. */
  readonly repairedTornTail: boolean;
}

export class LedgerAppendError extends Error {
  override readonly name = 'LedgerAppendError';
}

/**
 * Appends are serialized per (ledger, writer) within this process: choosing the segment,
 * checking its tail and writing must not interleave with another append of the same writer.
 */
const appends = new KeyedQueue();

async function sizeIfPresent(path: string): Promise<number | null> {
  try {
    return (await stat(path)).size;
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return null;
    throw error;
  }
}

/** The segment to append to: the highest-numbered one, or the next once that one is full. */
async function currentSegment(dir: string, writerId: string, rotateAt: number): Promise<string> {
  let highest = -1;
  for (const name of await readdir(dir)) {
    const n = segmentRotation(writerId, name);
    if (n !== null && n > highest) highest = n;
  }
  if (highest === -1) return segmentName(writerId, 0);
  const size = (await sizeIfPresent(join(dir, segmentName(writerId, highest)))) ?? 0;
  return size >= rotateAt ? segmentName(writerId, highest + 1) : segmentName(writerId, highest);
}

async function endsTorn(path: string, size: number): Promise<boolean> {
  if (size === 0) return false;
  const handle = await open(path, 'r');
  try {
    const last = Buffer.alloc(1);
    await handle.read(last, 0, 1, size - 1);
    return last[0] !== 0x0a;
  } finally {
    await handle.close();
  }
}

/** Makes a newly created segment's directory entry durable; not possible everywhere (Windows). */
async function syncDir(dir: string): Promise<void> {
  try {
    const handle = await open(dir, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // Best effort: the line itself is already fsynced.
  }
}

/**
 * Validates `entry`, then appends it as one `\n`-terminated JSON line to `writerId`'s current
 * segment with a single `write()` and an fsync. An invalid entry, a line over the bound or an
 * entry of another writer is refused with nothing written. Creates `ledger/` if needed but not
 * the rest of the layout (see `ensureLayout`).
 */
export async function appendEntry(
  vmarkDir: string,
  writerId: string,
  entry: unknown,
  options: AppendOptions = {},
): Promise<AppendReceipt> {
  const [receipt] = await appendEntries(vmarkDir, writerId, [entry], options);
  return receipt!;
}

/**
 * `appendEntry` for several entries, in order, with one `write()` and one fsync for all of
 * them (a capture records up to a few entries per write, and a burst of writes many): every
 * entry is checked first, and if any is refused nothing is written. A crash tears at most
 * the last line that reached the disk, as with one entry.
 */
export async function appendEntries(
  vmarkDir: string,
  writerId: string,
  entries: readonly unknown[],
  options: AppendOptions = {},
): Promise<AppendReceipt[]> {
  // The writer id becomes a file name, so it must be exactly a UUID (no path separators).
  if (!uuidString.safeParse(writerId).success) {
    throw new LedgerAppendError(`writer id is not a UUID: ${JSON.stringify(writerId)}`);
  }
  const lines = entries.map((entry) => {
    const checked = serializeEntry(entry, options);
    if (!checked.ok) throw new LedgerAppendError(`refused ledger entry: ${checked.reason}`);
    const parsed = JSON.parse(checked.line) as { writer: string };
    // A writer appends only to its own segments; an entry naming another writer would lie about them.
    if (parsed.writer !== writerId) {
      throw new LedgerAppendError(`entry writer ${parsed.writer} is not this writer ${writerId}`);
    }
    return Buffer.from(`${checked.line}\n`, 'utf8');
  });
  if (lines.length === 0) return [];

  const dir = ledgerDir(vmarkDir);
  return appends.run(`${resolve(dir)}\0${writerId}`, async () => {
    await mkdir(dir, { recursive: true });
    const segment = await currentSegment(dir, writerId, options.rotateAtBytes ?? ROTATE_AT_BYTES);
    const path = join(dir, segment);
    const size = await sizeIfPresent(path);
    const repairedTornTail = size !== null && (await endsTorn(path, size));
    // The repair newline rides in the same write(): torn bytes stay as they are (readers will
    // quarantine them as a line of their own) and the new entries start on a fresh line.
    const payload = Buffer.concat(repairedTornTail ? [Buffer.from('\n'), ...lines] : lines);
    const handle = await open(path, 'a');
    try {
      const { bytesWritten } = await handle.write(payload);
      if (bytesWritten !== payload.length) {
        // Not retried: a second write could interleave with a crash into two partial lines. The
        // short line is a torn tail that the next append closes.
        throw new LedgerAppendError(`short write to ${segment}: ${bytesWritten} of ${payload.length} bytes`);
      }
      await handle.sync();
    } finally {
      await handle.close();
    }
    if (size === null) await syncDir(dir);
    return lines.map((line, i) => ({
      segment,
      bytes: line.length,
      repairedTornTail: i === 0 && repairedTornTail,
    }));
  });
}
