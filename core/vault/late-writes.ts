/**
 * Writes that reach a file after a save has replaced it. A program that opened the file just
 * before the rename (an `echo >>` whose process was not scheduled in between, a logger that
 * keeps it open) writes into the old version, which no longer has a name: without a look
 * afterwards those bytes are silently gone. The save keeps the old version open for a moment
 * and looks at it a few times; what arrived is handed to the caller — an append (the common
 * case, which can be replayed onto the new file) or any other change (a conflict to show).
 */
import { createHash } from 'node:crypto';
import { type BigIntStats, fstatSync } from 'node:fs';
import { readWholeFile, releaseDescriptor } from './open-regular-file.js';

export type LateWrite =
  /** Bytes appended to the replaced version: appending them to the saved file keeps them. */
  | { readonly kind: 'append'; readonly suffix: Buffer }
  /** The replaced version was changed otherwise; these are all its bytes now. */
  | { readonly kind: 'rewrite'; readonly bytes: Buffer };

/** What the replaced version held when the save checked it. */
export interface CheckedVersion {
  readonly stats: BigIntStats;
  readonly sha256: string;
}

/**
 * When to look again after the save (and after each late write found), in milliseconds. On a
 * loaded machine a program's write can reach the file seconds after it opened it.
 */
const LOOKS_MS = [2, 10, 50, 250, 1000, 3000, 10_000];
/** Replaced versions watched at once; past it the oldest is let go. */
const MAX_WATCHED = 64;

const watched = new Set<() => void>();

/** The replaced version as last seen: what a later look compares against. */
interface Seen {
  readonly size: bigint;
  readonly mtimeNs: bigint;
  readonly sha256: string;
}

/**
 * Watches the replaced version open on the descriptor `fd` (which this takes over and closes) and calls
 * `onLate` for each write found in it, each compared with what was seen before it: a program
 * that appends twice gets both appends reported, in order. Never throws; errors end the watch.
 */
export function watchForLateWrites(
  fd: number,
  checked: CheckedVersion,
  onLate: (late: LateWrite) => void,
): void {
  let seen: Seen = { size: checked.stats.size, mtimeNs: checked.stats.mtimeNs, sha256: checked.sha256 };
  let step = 0;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let reading = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    clearTimeout(timer);
    watched.delete(stop);
    // Not under a read: a closed descriptor's number may be taken by another open before the read runs.
    if (!reading) releaseDescriptor(fd);
  };
  if (watched.size >= MAX_WATCHED) watched.values().next().value?.();
  watched.add(stop);
  const look = async () => {
    try {
      const now = fstatSync(fd, { bigint: true });
      if (now.size !== seen.size || now.mtimeNs !== seen.mtimeNs) {
        let bytes: Buffer;
        reading = true;
        try {
          bytes = await readWholeFile(fd);
        } finally {
          reading = false;
          if (stopped) releaseDescriptor(fd);
        }
        const sha256 = sha256Of(bytes);
        // The stats from before the read: a write during it shows at the next look.
        const next: Seen = { size: BigInt(bytes.length), mtimeNs: now.mtimeNs, sha256 };
        const late =
          bytes.length === Number(seen.size) && sha256 === seen.sha256 ? null : classify(bytes, seen);
        seen = next;
        if (late !== null) {
          // A program that wrote once may write again: the looks start over.
          step = 0;
          onLate(late);
          if (!stopped) schedule();
          return;
        }
      }
    } catch {
      stop();
      return;
    }
    // Let go of (more watches than MAX_WATCHED) while it read.
    if (stopped) return;
    if (++step >= LOOKS_MS.length) stop();
    else schedule();
  };
  const schedule = () => {
    timer = setTimeout(() => void look(), LOOKS_MS[step]! - (LOOKS_MS[step - 1] ?? 0));
    timer.unref();
  };
  schedule();
}

function sha256Of(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

function classify(bytes: Buffer, seen: Seen): LateWrite {
  const size = Number(seen.size);
  if (bytes.length > size) {
    if (sha256Of(bytes.subarray(0, size)) === seen.sha256)
      return { kind: 'append', suffix: bytes.subarray(size) };
  }
  return { kind: 'rewrite', bytes };
}
