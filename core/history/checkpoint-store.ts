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
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Disposable } from '@vmark/sdk';
import { inject, injectable } from 'inversify';
import { HostOptionsToken } from '../container/host-tokens.js';
import { writeFileAtomic } from '../vault/atomic-write.js';
import { TEMP_SUFFIX } from '../vault/temp-files.js';
import { errorCode } from '../vault/error-code.js';
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

/** The newest 500 checkpoints or 200 MiB of replaced text, whichever is smaller. */
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

@injectable()
export class CheckpointStore {
  readonly folder: string;
  readonly #retention: RetentionLimits;
  readonly #lock: LockOptions;
  /** Changes from this process run one at a time, so they wait on each other here, not by polling the lock. */
  #queue: Promise<unknown> = Promise.resolve();
  readonly #listeners = new Set<(entry: CheckpointEntry) => void>();

  constructor(@inject(HostOptionsToken) options: CheckpointStoreOptions) {
    this.folder = path.join(options.home, CHECKPOINTS_FOLDER);
    this.#retention = options.checkpointRetention ?? DEFAULT_RETENTION;
    this.#lock = options.checkpointLock ?? {};
  }

  /** Records one checkpoint, then prunes past the retention limits. */
  append(checkpoint: NewCheckpoint): Promise<CheckpointEntry> {
    const next = this.#queue.catch(() => undefined).then(() => this.#locked(() => this.#append(checkpoint)));
    this.#queue = next;
    return next.then((entry) => {
      for (const listener of [...this.#listeners]) {
        try {
          listener(entry);
        } catch {
          // A listener (the history panel) must not turn a recorded checkpoint into a failed one.
        }
      }
      return entry;
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
    await fs.mkdir(this.folder, { recursive: true, mode: 0o700 });
    return withFileLock(path.join(this.folder, LOCK_FILE), work, this.#lock);
  }

  async #append(checkpoint: NewCheckpoint): Promise<CheckpointEntry> {
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
    const contentPath = this.#contentPath(entry.id);
    await writeFileAtomic(contentPath, checkpoint.contentBefore);
    try {
      await this.#appendLine(serializeEntry(entry));
    } catch (error) {
      await fs.rm(contentPath, { force: true }).catch(() => undefined);
      throw error;
    }
    await this.#prune();
    return entry;
  }

  async #appendLine(line: string): Promise<void> {
    const handle = await fs.open(this.#indexPath(), 'a+');
    try {
      const { size } = await handle.stat();
      let torn = false;
      if (size > 0) {
        const last = Buffer.alloc(1);
        await handle.read(last, 0, 1, size - 1);
        torn = last[0] !== 0x0a;
      }
      // One write for the whole line, so that a crash can tear at most this one line.
      await handle.write(`${torn ? '\n' : ''}${line}\n`);
      await handle.datasync();
    } finally {
      await handle.close();
    }
  }

  /** Keeps the newest checkpoints within both limits (always the newest one), and removes the rest. */
  async #prune(): Promise<void> {
    const entries = await this.#readIndex();
    let count = 0;
    let bytes = 0;
    let firstKept = entries.length;
    while (firstKept > 0) {
      const entry = entries[firstKept - 1]!;
      const fits =
        count + 1 <= this.#retention.maxCount && bytes + entry.bytesBefore <= this.#retention.maxBytes;
      if (!fits && count > 0) break;
      count += 1;
      bytes += entry.bytesBefore;
      firstKept -= 1;
    }
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
