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
import type { FileHandle } from 'node:fs/promises';
import { readWholeFile } from './open-regular-file.js';

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

/** When to look again after the save, in milliseconds. */
const LOOKS_MS = [2, 10, 50, 250, 1000];
/** Replaced versions watched at once; past it the oldest is let go. */
const MAX_WATCHED = 64;

const watched = new Set<() => void>();

/**
 * Watches the replaced version open in `handle` (which this takes over and closes) and calls
 * `onLate` once if anything was written to it. Never throws; errors end the watch.
 */
export function watchForLateWrites(
  handle: FileHandle,
  checked: CheckedVersion,
  onLate: (late: LateWrite) => void,
): void {
  let step = 0;
  let timer: NodeJS.Timeout | undefined;
  const stop = () => {
    clearTimeout(timer);
    watched.delete(stop);
    void handle.close().catch(() => undefined);
  };
  if (watched.size >= MAX_WATCHED) watched.values().next().value?.();
  watched.add(stop);
  const look = async () => {
    try {
      const now = fstatSync(handle.fd, { bigint: true });
      if (now.size !== checked.stats.size || now.mtimeNs !== checked.stats.mtimeNs) {
        const bytes = await readWholeFile(handle);
        stop();
        onLate(classify(bytes, checked));
        return;
      }
    } catch {
      stop();
      return;
    }
    if (++step >= LOOKS_MS.length) stop();
    else schedule();
  };
  const schedule = () => {
    timer = setTimeout(() => void look(), LOOKS_MS[step]! - (LOOKS_MS[step - 1] ?? 0));
    timer.unref();
  };
  schedule();
}

function classify(bytes: Buffer, checked: CheckedVersion): LateWrite {
  const size = Number(checked.stats.size);
  if (bytes.length > size) {
    const prefix = createHash('sha256').update(bytes.subarray(0, size)).digest('hex');
    if (prefix === checked.sha256) return { kind: 'append', suffix: bytes.subarray(size) };
  }
  return { kind: 'rewrite', bytes };
}
