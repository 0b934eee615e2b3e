/**
 * The AI edit history on disk, in `$VMARK_HOME/checkpoints/`:
 *
 * - `<id>.ckpt`: one checkpoint, self-describing: its entry's index line, then the text the
 *   edit replaced. Written atomically (fsynced, renamed); once it is, the checkpoint is
 *   restorable, and the write it belongs to may answer (ADR 60, ADR 79);
 * - `index.jsonl`: one `CheckpointEntry` per line, only ever appended to (pruning aside),
 *   after the text files it names. A line a crash left out is found again from its text
 *   file; a line whose text file is gone is passed over.
 * - `<id>.md`: a checkpoint's text alone, as vmark wrote it before ADR 79; still read, and
 *   pruned like the rest.
 *
 * The files of pruned checkpoints go to `$VMARK_HOME/checkpoint-spares/` (up to 64 small ones),
 * where new checkpoints are written over them instead of creating files (ADR 102).
 *
 * The history is read as the index's entries that still have their text, plus the text files
 * the index lacks, in the order they were made. An append cut short by a crash leaves a torn
 * last line: readers skip it, and the next append starts on a new line. Every change holds
 * `index.lock`, since several vmark processes may share one VMARK_HOME.
 */
import {
  closeSync,
  fstatSync,
  mkdirSync,
  openSync,
  readSync,
  renameSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Disposable } from '@vmark/sdk';
import { inject, injectable } from 'inversify';
import { HostOptionsToken } from '../tokens/host-tokens.js';
import { writeFileAtomic } from '../vault/atomic-write.js';
import { ownerIsGone } from '../vault/process-owner.js';
import { classifyTempName, TEMP_SUFFIX } from '../vault/temp-files.js';
import { errorCode } from '@vmark/sdk';
import {
  CHECKPOINT_ID_LENGTH,
  type Checkpoint,
  type CheckpointEntry,
  isCheckpointId,
  newCheckpointId,
  parseCheckpointFile,
  parseIndex,
  serializeCheckpointFile,
  serializeEntry,
} from './checkpoint-entry.js';
import { type LockOptions, withFileLock } from '../vault/file-lock.js';
import { lockSourcesOfHome } from '../vault/lock-source.js';
import { CheckpointSpares } from './checkpoint-spares.js';

export const CHECKPOINTS_FOLDER = 'checkpoints';
export const INDEX_FILE = 'index.jsonl';
const LOCK_FILE = 'index.lock';
/** A checkpoint's file: its entry, then its text (`serializeCheckpointFile`). */
const TEXT_SUFFIX = '.ckpt';
/** A checkpoint's text alone, as written before ADR 79 (existing histories). */
const LEGACY_TEXT_SUFFIX = '.md';

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

/**
 * What this store last knew of the index (its size and inode) and of the history it held: so
 * that an append that finds the index as it left it need not read it again to know whether
 * the history is past its limits. Another process's append or prune changes the size or the
 * inode, and the next append reads the whole history.
 */
interface KnownIndex {
  readonly size: number;
  readonly ino: number;
  readonly count: number;
  readonly bytes: number;
  /** Whether it ends with a whole line: this store wrote its end (a read may have found a torn one). */
  readonly whole: boolean;
}

/** The history as read from the folder. */
interface History {
  /** Oldest first: the index's entries that have their text, and `recovered`. */
  readonly entries: CheckpointEntry[];
  /** Checkpoints whose text file is there but whose index line is not (a crash, a failed append). */
  readonly recovered: CheckpointEntry[];
  /**
   * Recovered checkpoints still in the temp file a process that has ended wrote and synced, but
   * whose rename a crash (a power cut: the folder is not synced, ADR 8) undid: id → that file.
   */
  readonly inTemp: ReadonlyMap<string, string>;
  /** Ids of index lines whose text is gone (pruned): passed over. */
  readonly textless: ReadonlySet<string>;
  /** The folder's file names when it was read. */
  readonly names: readonly string[];
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
  #known: KnownIndex | undefined;
  /** Pruned checkpoints' files, written over by new ones instead of creating files (ADR 102). */
  readonly #spares: CheckpointSpares;
  readonly #listeners = new Set<(entry: CheckpointEntry) => void>();

  constructor(@inject(HostOptionsToken) options: CheckpointStoreOptions) {
    this.folder = path.join(options.home, CHECKPOINTS_FOLDER);
    this.#retention = options.checkpointRetention ?? DEFAULT_RETENTION;
    this.#lock = { sources: lockSourcesOfHome(options.home), ...options.checkpointLock };
    this.#spares = new CheckpointSpares(options.home);
  }

  /**
   * Records one checkpoint, then prunes past the retention limits. Checkpoints waiting to be
   * written that the retention would prune as soon as they were written (newer ones waiting
   * fill the limits by themselves) are never written: they resolve at once, as pruned ones.
   *
   * `onDurable` is called as soon as the checkpoint can be restored after a crash (its
   * self-describing text file synced and renamed, ADR 79), before its index line and the prune
   * that follow: what waits for that alone (a write's answer, ADR 60) waits for one sync. It is
   * not called for a checkpoint whose text could not be written. A checkpoint whose index line
   * or prune then fails rejects, and is still in the history (found from its text file).
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
    return (await this.#readHistory()).entries.reverse();
  }

  /** @throws UnknownCheckpointError for an id that is not in the history (or whose text was pruned). */
  async get(id: string): Promise<Checkpoint> {
    if (!isCheckpointId(id)) {
      throw new UnknownCheckpointError(`${JSON.stringify(id)} is not a checkpoint id (ids look like ckpt-…)`);
    }
    const history = await this.#readHistory();
    const entry = history.entries.findLast((e) => e.id === id);
    if (!entry) {
      if (history.textless.has(id)) throw new UnknownCheckpointError(`checkpoint ${id} was pruned`);
      throw new UnknownCheckpointError(`no checkpoint with id ${id}`);
    }
    const inTemp = history.inTemp.get(id);
    const checkpoint =
      inTemp === undefined
        ? await this.#readText(id)
        : parseCheckpointFile(id, (await readIfThere(inTemp)) ?? '');
    // Pruned by another process between reading the history and the text.
    if (checkpoint === undefined) throw new UnknownCheckpointError(`checkpoint ${id} was pruned`);
    return { ...entry, contentBefore: checkpoint.contentBefore };
  }

  /**
   * A checkpoint's text, from its file (or, from a history written before ADR 79, its legacy
   * file); undefined when neither is there.
   * @throws Error for a `.ckpt` file that is not a whole checkpoint of that id.
   */
  async #readText(id: string): Promise<{ contentBefore: string } | undefined> {
    const text = await readIfThere(this.#textPath(id));
    if (text !== undefined) {
      const checkpoint = parseCheckpointFile(id, text);
      if (checkpoint === undefined) throw new Error(`the text file of checkpoint ${id} is damaged`);
      return checkpoint;
    }
    const legacy = await readIfThere(path.join(this.folder, id + LEGACY_TEXT_SUFFIX));
    return legacy === undefined ? undefined : { contentBefore: legacy };
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
   * Each text file (self-describing, atomically) first: once they are on disk the checkpoints
   * are restorable and their writes may answer. Then one index append for the batch, unsynced
   * (a line a crash loses is found again from its text file), then one prune. A checkpoint
   * whose text could not be written fails alone. Returns what settles each checkpoint's append.
   */
  async #appendBatch(batch: readonly Waiting[]): Promise<() => void> {
    const failed: Array<[Waiting, unknown]> = [];
    const written: Waiting[] = [];
    for (let start = 0; start < batch.length; start += PARALLEL_WRITES) {
      const slice = batch.slice(start, start + PARALLEL_WRITES);
      const outcomes = await Promise.allSettled(
        slice.map(({ entry, contentBefore }) =>
          this.#writeText(entry.id, Buffer.from(serializeCheckpointFile(entry, contentBefore), 'utf8')),
        ),
      );
      outcomes.forEach((outcome, i) => {
        if (outcome.status === 'fulfilled') written.push(slice[i]!);
        else failed.push([slice[i]!, outcome.reason]);
      });
    }
    // Restorable from here on, whatever happens to the index.
    for (const waiting of written) waiting.onDurable?.();
    // The answers those release go out first: the index append and the prune below are synchronous in part.
    await new Promise<void>((resolve) => setImmediate(resolve));
    const settle = (error?: unknown) => () => {
      for (const [waiting, reason] of failed) waiting.reject(reason);
      for (const waiting of written) {
        if (error === undefined) waiting.resolve(waiting.entry);
        else waiting.reject(error);
      }
    };
    if (written.length === 0) return settle();
    try {
      this.#appendLines(written.map((waiting) => waiting.entry));
      await this.#prune();
    } catch (error) {
      // The next append reads the history whole, and indexes what this one could not.
      this.#known = undefined;
      return settle(error);
    }
    return settle();
  }

  /** A checkpoint's file, atomically: through a spare when there is one, else a new file. */
  async #writeText(id: string, bytes: Buffer): Promise<void> {
    const target = this.#textPath(id);
    if (await this.#spares.writeThrough(target, bytes)) return;
    await writeFileAtomic(target, bytes);
  }

  /**
   * Appends the entries' lines to the index. Synchronous, like the lock it runs under: a few
   * hundred bytes a line into the page cache, where three thread-pool trips (open, write, close)
   * kept the lock, and so the next write's checkpoint, waiting on a busy machine (ADR 79).
   */
  #appendLines(entries: readonly CheckpointEntry[]): void {
    const fd = openSync(this.#indexPath(), 'a+');
    try {
      const { size, ino } = fstatSync(fd);
      const known = this.#known;
      const asLeft = known !== undefined && known.size === size && known.ino === ino;
      let torn = false;
      // An index as this store wrote it ends with its own last line's newline: no byte to read back.
      if (size > 0 && !(asLeft && known.whole)) {
        const last = Buffer.alloc(1);
        readSync(fd, last, 0, 1, size - 1);
        torn = last[0] !== 0x0a;
      }
      // One write for the batch's lines, so that a crash can tear at most the last line written.
      // Not synced: the text files the lines name are, and describe themselves (ADR 79).
      const text = Buffer.from(
        `${torn ? '\n' : ''}${entries.map((entry) => `${serializeEntry(entry)}\n`).join('')}`,
        'utf8',
      );
      let written = 0;
      while (written < text.length) written += writeSync(fd, text, written, text.length - written);
      this.#known = asLeft
        ? {
            size: size + text.length,
            ino,
            count: known.count + entries.length,
            bytes: known.bytes + totalBytes(entries),
            whole: true,
          }
        : undefined;
    } finally {
      closeSync(fd);
    }
  }

  /**
   * Keeps the newest checkpoints within both limits (always the newest one), and removes the
   * rest, once the history is past its slack. Reads the whole history only when this store
   * does not know it (its first append, or another process changed the index) or it is past
   * the slack; such a read also indexes the checkpoints whose line is missing.
   */
  async #prune(): Promise<void> {
    const known = this.#known;
    if (known !== undefined && !pastSlack(known.count, known.bytes, this.#retention)) return;
    const history = await this.#readHistory();
    this.#spares.refresh();
    // Found again from their text files: their lines, so that the index is whole again.
    // We hold the lock: no live writer; the temp files were whole and synced when read.
    for (const [id, temp] of history.inTemp) renameSync(temp, this.#textPath(id));
    if (history.recovered.length > 0) this.#appendLines(history.recovered);
    const { entries } = history;
    const bytes = totalBytes(entries);
    this.#known = knownIndex(this.#indexPath(), entries.length, bytes);
    if (!pastSlack(entries.length, bytes, this.#retention)) return;
    const { firstKept, bytes: keptBytes } = retained(entries, this.#retention);
    if (firstKept === 0) return;
    const kept = entries.slice(firstKept);
    // The texts first: a crash in between leaves index lines without text, which readers pass
    // over, not texts without lines, which they would bring back. Also sweeps text no entry
    // names (left by an append before ADR 79 that crashed before its line, or not a checkpoint)
    // and temp files of a crashed atomic write: we hold the lock, so none is live.
    // Synchronous unlinks, one system call each under the lock (ADR 47): `fs.rm` took three trips
    // through the thread pool a file (two lstats, then the unlink), fifty files a prune (ADR 95).
    // A dropped checkpoint's file is kept as a spare for a new one where there is room (ADR 102):
    // out of the history's folder, so never read as a checkpoint again.
    const keep = new Set(kept.flatMap((e) => [e.id + TEXT_SUFFIX, e.id + LEGACY_TEXT_SUFFIX]));
    const dropped = new Map(entries.slice(0, firstKept).map((e) => [e.id + TEXT_SUFFIX, e.bytesBefore]));
    for (const name of history.names) {
      const text = name.endsWith(TEXT_SUFFIX) || name.endsWith(LEGACY_TEXT_SUFFIX);
      const stray = (name.startsWith('ckpt-') && text && !keep.has(name)) || name.endsWith(TEMP_SUFFIX);
      if (!stray) continue;
      const file = path.join(this.folder, name);
      const bytes = dropped.get(name);
      if (bytes === undefined || !this.#spares.keep(file, bytes)) removeIfThere(file);
    }
    const stats = await writeFileAtomic(
      this.#indexPath(),
      kept.map((e) => serializeEntry(e) + '\n').join(''),
    );
    this.#known = {
      size: Number(stats.size),
      ino: Number(stats.ino),
      count: kept.length,
      bytes: keptBytes,
      whole: true,
    };
  }

  /**
   * The history: the index read first, then the folder listed, so that a checkpoint another
   * process appends in between is found from its text file, and one it prunes is passed over.
   */
  async #readHistory(): Promise<History> {
    const indexed = await this.#readIndex();
    let names: string[];
    try {
      names = await fs.readdir(this.folder);
    } catch (error) {
      if (errorCode(error) !== 'ENOENT') throw error;
      names = [];
    }
    const files = new Set(names);
    const found = new Set<string>();
    const entries: CheckpointEntry[] = [];
    const textless = new Set<string>();
    for (const entry of indexed) {
      if (found.has(entry.id)) continue;
      if (files.has(entry.id + TEXT_SUFFIX) || files.has(entry.id + LEGACY_TEXT_SUFFIX)) {
        found.add(entry.id);
        entries.push(entry);
      } else {
        textless.add(entry.id);
      }
    }
    const recovered: CheckpointEntry[] = [];
    const inTemp = new Map<string, string>();
    for (const name of names) {
      const id = recoverableId(name);
      if (id === undefined || found.has(id)) continue;
      const file = path.join(this.folder, name);
      const text = await readIfThere(file);
      const checkpoint = text === undefined ? undefined : parseCheckpointFile(id, text);
      if (checkpoint === undefined) continue;
      const { contentBefore: _text, ...entry } = checkpoint;
      recovered.push(entry);
      if (!name.endsWith(TEXT_SUFFIX)) inTemp.set(id, file);
      textless.delete(id);
      found.add(id);
    }
    entries.push(...recovered);
    // In the order they were made: a recovered checkpoint takes its place among the others,
    // before and after its line is appended alike. Stable: one millisecond's keep their order.
    entries.sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0));
    return { entries, recovered, inTemp, textless, names };
  }

  async #readIndex(): Promise<CheckpointEntry[]> {
    return parseIndex((await readIfThere(this.#indexPath())) ?? '');
  }

  #indexPath(): string {
    return path.join(this.folder, INDEX_FILE);
  }

  #textPath(id: string): string {
    return path.join(this.folder, id + TEXT_SUFFIX);
  }
}

/**
 * The id of the checkpoint a file in the folder may hold whole without an index line naming
 * it: `<id>.ckpt`, or the temp file of one (`.<id>.ckpt.<owner>.<random>.vmark-tmp`) whose
 * process has ended — a temp file being written by a live one is never taken. Whether it is
 * whole is for `parseCheckpointFile` to say (its entry gives the text's size).
 */
function recoverableId(name: string): string | undefined {
  if (name.endsWith(TEXT_SUFFIX)) {
    const id = name.slice(0, -TEXT_SUFFIX.length);
    return isCheckpointId(id) ? id : undefined;
  }
  const id = name.slice(1, 1 + CHECKPOINT_ID_LENGTH);
  if (!name.startsWith(`.${id}${TEXT_SUFFIX}.`) || !isCheckpointId(id)) return undefined;
  const temp = classifyTempName(name);
  return temp.kind === 'temp' && ownerIsGone(temp.owner) ? id : undefined;
}

/** Removes a file; one already gone counts as removed. Anything else (a folder there) throws, as `fs.rm` did. */
function removeIfThere(file: string): void {
  try {
    unlinkSync(file);
  } catch (error) {
    if (errorCode(error) !== 'ENOENT') throw error;
  }
}

/** A file's text, or undefined when there is none. */
async function readIfThere(file: string): Promise<string | undefined> {
  try {
    return await fs.readFile(file, 'utf8');
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return undefined;
    throw error;
  }
}

/** What a store knows after reading the whole history under the lock; undefined if the index cannot be looked at. */
function knownIndex(indexPath: string, count: number, bytes: number): KnownIndex | undefined {
  try {
    // Metadata under the lock, synchronous (ADR 47).
    const { size, ino } = statSync(indexPath);
    // Its end as found, perhaps a line another process's crash tore: looked at before the next append.
    return { size, ino, count, bytes, whole: false };
  } catch {
    return undefined;
  }
}

function totalBytes(entries: readonly CheckpointEntry[]): number {
  let bytes = 0;
  for (const entry of entries) bytes += entry.bytesBefore;
  return bytes;
}

/**
 * Whether a history of `count` checkpoints and `bytes` of text is past a limit by more than a
 * tenth of it. A history at its limits would otherwise rewrite the index (an fsync) and list
 * the folder on every append; with the slack it does so once every tenth of the limit (50
 * appends at the default 500), back down to the limits.
 */
function pastSlack(count: number, bytes: number, retention: RetentionLimits): boolean {
  const slack = (limit: number) => limit + Math.floor(limit / 10);
  return count > slack(retention.maxCount) || bytes > slack(retention.maxBytes);
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
