/**
 * The AI edit history on disk, in `$VMARK_HOME/checkpoints/`:
 *
 * - `index.jsonl`: one `CheckpointEntry` per line, oldest first, only ever appended
 *   to (pruning aside);
 * - `<id>.md`: the text each edit replaced, written (atomically) before its index
 *   line, so that no line ever names a missing file.
 *
 * An append cut short by a crash leaves a torn last line: readers skip it, and
 * the next append starts on a new line. Every change holds `index.lock`, since
 * several vmark processes may share one VMARK_HOME.
 */
import { fstatSync, mkdirSync, readSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Disposable } from '@vmark/sdk';
import { inject, injectable } from 'inversify';
import { HostOptionsToken } from '../tokens/host-tokens.js';
import { writeFileAtomic } from '../vault/atomic-write.js';
import { TEMP_SUFFIX } from '../vault/temp-files.js';
import { errorCode } from '@vmark/sdk';
import {
  type Checkpoint,
  type CheckpointEntry,
  isCheckpointId,
  newCheckpointId,
  parseIndex,
  serializeEntry,
} from './checkpoint-entry.js';
import { type LockOptions, withFileLock } from '../vault/file-lock.js';

export const CHECKPOINTS_FOLDER = 'checkpoints';
export const INDEX_FILE = 'index.jsonl';
const LOCK_FILE = 'index.lock';
const CONTENT_SUFFIX = '.md';

export interface RetentionLimits {
  readonly maxCount: number;
  readonly maxBytes: number;
}

/**
 * The newest 500 checkpoints or 200 MiB of replaced text, whichever is smaller; pruned back to
 * that once the history is a tenth past either (`pastSlack`).
 */
export const DEFAULT_RETENTION: RetentionLimits = { maxCount: 500, maxBytes: 200 * 1024 * 1024 };

/** `HostOptions` fits this; the CLI and tests pass `{home}` (and limits) themselves. */
export interface CheckpointStoreOptions {
  readonly home: string;
  readonly checkpointRetention?: RetentionLimits;
  readonly checkpointLock?: LockOptions;
}

/** What a caller records; the store adds the id, the time (unless given) and the size. */
export interface NewCheckpoint extends Omit<CheckpointEntry, 'id' | 'createdAt' | 'bytesBefore'> {
  readonly contentBefore: string;
  /** When the edit happened; defaults to now. */
  readonly createdAt?: Date;
}

/** `get` of an id that is not (or no longer) in the history. */
export class UnknownCheckpointError extends Error {
  override readonly name = 'UnknownCheckpointError';
}

/** A checkpoint handed to `append` and not yet on disk, with the entry it will have. */
interface Waiting {
  readonly entry: CheckpointEntry;
  readonly contentBefore: string;
  readonly onDurable: (() => void) | undefined;
  readonly resolve: (entry: CheckpointEntry) => void;
  readonly reject: (error: unknown) => void;
}

/** Text files written at once within one batch: enough to share the disk's flushes, few enough for any fd limit. */
const PARALLEL_WRITES = 8;

@injectable()
export class CheckpointStore {
  readonly folder: string;
  readonly #retention: RetentionLimits;
  readonly #lock: LockOptions;
  /**
   * Appends not yet written, oldest first. While one batch is on its way to disk the next
   * gathers here, so a burst of edits costs one lock, one index append and one prune, and the
   * store keeps up with writes instead of queueing their texts in memory (issue 9).
   */
  #waiting: Waiting[] = [];
  #waitingBytes = 0;
  #writing = false;
  readonly #listeners = new Set<(entry: CheckpointEntry) => void>();

  constructor(@inject(HostOptionsToken) options: CheckpointStoreOptions) {
    this.folder = path.join(options.home, CHECKPOINTS_FOLDER);
    this.#retention = options.checkpointRetention ?? DEFAULT_RETENTION;
    this.#lock = options.checkpointLock ?? {};
  }

  /**
   * Records one checkpoint, then prunes past the retention limits. Checkpoints waiting to be
   * written that the retention would prune as soon as they were written (newer ones waiting
   * fill the limits by themselves) are never written: they resolve at once, as pruned ones.
   *
   * `onDurable` is called as soon as the checkpoint can be restored after a crash (its text and
   * index line synced), before the prune that follows: what waits for that alone (a write's
   * answer, ADR 60) does not wait for the prune. It is not called for a checkpoint that fails.
   */
  append(checkpoint: NewCheckpoint, onDurable?: () => void): Promise<CheckpointEntry> {
    const createdAt = checkpoint.createdAt ?? new Date();
    const entry: CheckpointEntry = {
      id: newCheckpointId(createdAt),
      createdAt: createdAt.toISOString(),
      tabId: checkpoint.tabId,
      filePath: checkpoint.filePath,
      tool: checkpoint.tool,
      description: checkpoint.description,
      revisionBefore: checkpoint.revisionBefore,
      revisionAfter: checkpoint.revisionAfter,
      bytesBefore: Buffer.byteLength(checkpoint.contentBefore, 'utf8'),
    };
    const recorded = new Promise<CheckpointEntry>((resolve, reject) => {
      this.#waiting.push({ entry, contentBefore: checkpoint.contentBefore, onDurable, resolve, reject });
    });
    this.#waitingBytes += entry.bytesBefore;
    this.#dropPruned();
    if (!this.#writing) void this.#drain();
    return recorded.then((recordedEntry) => {
      for (const listener of [...this.#listeners]) {
        try {
          listener(recordedEntry);
        } catch {
          // A listener (the history panel) must not turn a recorded checkpoint into a failed one.
        }
      }
      return recordedEntry;
    });
  }

  /**
   * Called after each checkpoint this store (this process) records, once it is on disk.
   * Checkpoints other processes record in the same VMARK_HOME show in `list`, and as a
   * change of `INDEX_FILE` in `folder` (the history panel watches it).
   */
  onDidAppend(listener: (entry: CheckpointEntry) => void): Disposable {
    this.#listeners.add(listener);
    return { dispose: () => this.#listeners.delete(listener) };
  }

  /** Every checkpoint, newest first. */
  async list(): Promise<CheckpointEntry[]> {
    return (await this.#readIndex()).reverse();
  }

  /** @throws UnknownCheckpointError for an id that is not in the history (or whose text was pruned). */
  async get(id: string): Promise<Checkpoint> {
    if (!isCheckpointId(id)) {
      throw new UnknownCheckpointError(`${JSON.stringify(id)} is not a checkpoint id (ids look like ckpt-…)`);
    }
    const entry = (await this.#readIndex()).findLast((e) => e.id === id);
    if (!entry) throw new UnknownCheckpointError(`no checkpoint with id ${id}`);
    try {
      return { ...entry, contentBefore: await fs.readFile(this.#contentPath(id), 'utf8') };
    } catch (error) {
      // Pruned by another process between reading the index and the text.
      if (errorCode(error) === 'ENOENT') throw new UnknownCheckpointError(`checkpoint ${id} was pruned`);
      throw error;
    }
  }

  async #locked<T>(work: () => Promise<T>): Promise<T> {
    // Metadata only, on every batch: synchronous, as on the save path (ADR 47).
    mkdirSync(this.folder, { recursive: true, mode: 0o700 });
    return withFileLock(path.join(this.folder, LOCK_FILE), work, this.#lock);
  }

  /** Writes what waits, batch after batch, until nothing does. */
  async #drain(): Promise<void> {
    this.#writing = true;
    while (this.#waiting.length > 0) {
      const batch = this.#waiting;
      this.#waiting = [];
      this.#waitingBytes = 0;
      // Settled once the lock is released, so that whoever waits for an append finds the folder free.
      let settle: () => void;
      try {
        settle = await this.#locked(() => this.#appendBatch(batch));
      } catch (error) {
        // Lock or folder: nothing of the batch was written.
        settle = () => batch.forEach((waiting) => waiting.reject(error));
      }
      settle();
    }
    this.#writing = false;
  }

  /**
   * Of the checkpoints waiting, the newest that fit the retention limits (always the newest
   * one) stay; older ones would be pruned right after their write, so they are not written.
   */
  #dropPruned(): void {
    if (this.#waiting.length <= this.#retention.maxCount && this.#waitingBytes <= this.#retention.maxBytes)
      return;
    const { firstKept, bytes } = retained(
      this.#waiting.map((waiting) => waiting.entry),
      this.#retention,
    );
    for (const { entry, onDurable, resolve } of this.#waiting.splice(0, firstKept)) {
      onDurable?.();
      resolve(entry);
    }
    this.#waitingBytes = bytes;
  }

  /**
   * Each text file first (atomically, before any index line names it), then one index append
   * for the batch, then one prune. A checkpoint whose text could not be written fails alone.
   * Returns what settles each checkpoint's append.
   */
  async #appendBatch(batch: readonly Waiting[]): Promise<() => void> {
    const failed: Array<[Waiting, unknown]> = [];
    const written: Waiting[] = [];
    for (let start = 0; start < batch.length; start += PARALLEL_WRITES) {
      const slice = batch.slice(start, start + PARALLEL_WRITES);
      const outcomes = await Promise.allSettled(
        slice.map((waiting) => writeFileAtomic(this.#contentPath(waiting.entry.id), waiting.contentBefore)),
      );
      outcomes.forEach((outcome, i) => {
        if (outcome.status === 'fulfilled') written.push(slice[i]!);
        else failed.push([slice[i]!, outcome.reason]);
      });
    }
    const settle = (error?: unknown) => () => {
      for (const [waiting, reason] of failed) waiting.reject(reason);
      for (const waiting of written) {
        if (error === undefined) waiting.resolve(waiting.entry);
        else waiting.reject(error);
      }
    };
    if (written.length === 0) return settle();
    try {
      await this.#appendLines(written.map((waiting) => serializeEntry(waiting.entry)));
      for (const waiting of written) waiting.onDurable?.();
    } catch (error) {
      await Promise.all(
        written.map((waiting) =>
          fs.rm(this.#contentPath(waiting.entry.id), { force: true }).catch(() => undefined),
        ),
      );
      return settle(error);
    }
    try {
      await this.#prune();
    } catch (error) {
      return settle(error);
    }
    return settle();
  }

  async #appendLines(lines: readonly string[]): Promise<void> {
    const handle = await fs.open(this.#indexPath(), 'a+');
    try {
      // A stat and a one-byte read: synchronous, cheaper than two trips through the thread pool (ADR 47).
      const { size } = fstatSync(handle.fd);
      let torn = false;
      if (size > 0) {
        const last = Buffer.alloc(1);
        readSync(handle.fd, last, 0, 1, size - 1);
        torn = last[0] !== 0x0a;
      }
      // One write for the batch's lines, so that a crash can tear at most the last line written.
      await handle.write(`${torn ? '\n' : ''}${lines.map((line) => `${line}\n`).join('')}`);
      await handle.datasync();
    } finally {
      await handle.close();
    }
  }

  /** Keeps the newest checkpoints within both limits (always the newest one), and removes the rest. */
  async #prune(): Promise<void> {
    const entries = await this.#readIndex();
    if (!pastSlack(entries, this.#retention)) return;
    const { firstKept } = retained(entries, this.#retention);
    if (firstKept === 0) return;
    const kept = entries.slice(firstKept);
    await writeFileAtomic(this.#indexPath(), kept.map((e) => serializeEntry(e) + '\n').join(''));
    // After the index no longer names them. Also sweeps text left by an append that crashed
    // before its index line, and temp files of a crashed atomic write: we hold the lock, so none is live.
    const keep = new Set(kept.map((e) => e.id + CONTENT_SUFFIX));
    for (const name of await fs.readdir(this.folder)) {
      const stray =
        (name.startsWith('ckpt-') && name.endsWith(CONTENT_SUFFIX) && !keep.has(name)) ||
        name.endsWith(TEMP_SUFFIX);
      if (stray) await fs.rm(path.join(this.folder, name), { force: true });
    }
  }

  async #readIndex(): Promise<CheckpointEntry[]> {
    try {
      return parseIndex(await fs.readFile(this.#indexPath(), 'utf8'));
    } catch (error) {
      if (errorCode(error) === 'ENOENT') return [];
      throw error;
    }
  }

  #indexPath(): string {
    return path.join(this.folder, INDEX_FILE);
  }

  #contentPath(id: string): string {
    return path.join(this.folder, id + CONTENT_SUFFIX);
  }
}

/**
 * Whether `entries` are past a limit by more than a tenth of it. A history at its limits would
 * otherwise rewrite the index (an fsync) and list the folder on every append; with the slack it
 * does so once every tenth of the limit (50 appends at the default 500), back down to the limits.
 */
function pastSlack(entries: readonly CheckpointEntry[], retention: RetentionLimits): boolean {
  const slack = (limit: number) => limit + Math.floor(limit / 10);
  if (entries.length > slack(retention.maxCount)) return true;
  let bytes = 0;
  for (const entry of entries) bytes += entry.bytesBefore;
  return bytes > slack(retention.maxBytes);
}

/**
 * Of `entries` (oldest first), where the newest that fit both limits begin (always at least
 * the newest one), and how many bytes of replaced text they hold.
 */
function retained(
  entries: readonly CheckpointEntry[],
  retention: RetentionLimits,
): { firstKept: number; bytes: number } {
  let count = 0;
  let bytes = 0;
  let firstKept = entries.length;
  while (firstKept > 0) {
    const entry = entries[firstKept - 1]!;
    const fits = count + 1 <= retention.maxCount && bytes + entry.bytesBefore <= retention.maxBytes;
    if (!fits && count > 0) break;
    count += 1;
    bytes += entry.bytesBefore;
    firstKept -= 1;
  }
  return { firstKept, bytes };
}
