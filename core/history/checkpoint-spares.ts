/**
 * Files of pruned checkpoints kept to be written over by new ones (ADR 102), in
 * `$VMARK_HOME/checkpoint-spares/`. On this kind of disk creating a file is the costliest thing a
 * write asks of the kernel (ext4 without a journal searches past every inode freed in the last
 * 30 s, ADR 98), and a history at its limits both frees one (the prune) and creates one (the
 * append) per write. A spare is renamed to the new checkpoint's temp name, written over, cut to
 * length, fsynced and renamed into place: the same atomic steps as a new file, on an inode that
 * already exists.
 *
 * Everything here runs under the checkpoint folder's lock (`index.lock`): no two vmark processes
 * take or make spares at once. A spare is never read as a checkpoint (its folder and name are not
 * the history's); one rewritten in place and cut short by a crash carries the new first line over
 * an older text, which its CRC-32 tells apart (`parseCheckpointFile`).
 */
import {
  closeSync,
  constants,
  fstatSync,
  fsync,
  ftruncateSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  renameSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { errorCode } from '@vmark/sdk';
import { randomHex } from '../vault/random-draws.js';
import { tempPathFor } from '../vault/temp-files.js';

export const SPARES_FOLDER = 'checkpoint-spares';
/** At most this many spares: a prune at the default limits drops about fifty checkpoints. */
export const SPARE_LIMIT = 64;
/** Only small files are kept and written over (written synchronously, like a small new one, ADR 79). */
export const SPARE_MAX_BYTES = 64 * 1024;

const fsyncAsync = promisify(fsync);

/** What is known of the spares folder: the files in it, taken from the end. */
export class CheckpointSpares {
  readonly folder: string;
  #spares: string[] = [];

  constructor(home: string) {
    this.folder = path.join(home, SPARES_FOLDER);
  }

  /**
   * Lists the folder again (under the lock, when the history is read whole): spares another
   * process made are taken too, and names another removed are forgotten.
   */
  refresh(): void {
    try {
      this.#spares = readdirSync(this.folder).map((name) => path.join(this.folder, name));
    } catch (error) {
      if (errorCode(error) !== 'ENOENT') throw error;
      this.#spares = [];
    }
  }

  /**
   * Keeps the pruned checkpoint file `file` as a spare instead of removing it. False when it is
   * not kept (the pool is full, the file too large, or it cannot be moved: another file system,
   * or it is gone already): the caller removes it.
   */
  keep(file: string, bytes: number): boolean {
    if (bytes > SPARE_MAX_BYTES || this.#spares.length >= SPARE_LIMIT) return false;
    if (this.#spares.length === 0) mkdirSync(this.folder, { recursive: true, mode: 0o700 });
    const spare = path.join(this.folder, randomHex(8));
    try {
      renameSync(file, spare);
    } catch {
      // Gone already (the caller's removal takes that as removed), or not movable: removed instead.
      return false;
    }
    this.#spares.push(spare);
    return true;
  }

  /**
   * Writes `bytes` to `target` (a new checkpoint's file) atomically through a spare: renamed to a
   * temp name beside `target`, written over, cut to length, fsynced, renamed to `target`. False,
   * with nothing left at the temp name, when no spare could be used (none known, too many bytes,
   * or the spare is gone or is not a plain file): the caller creates the file as before.
   * @throws what writing, syncing or renaming the claimed spare threw (its temp file removed).
   */
  async writeThrough(target: string, bytes: Uint8Array): Promise<boolean> {
    if (bytes.length > SPARE_MAX_BYTES) return false;
    for (let spare = this.#spares.pop(); spare !== undefined; spare = this.#spares.pop()) {
      const temp = tempPathFor(target);
      const fd = claim(spare, temp);
      if (fd === undefined) continue;
      try {
        let written = 0;
        while (written < bytes.length)
          written += writeSync(fd, bytes, written, bytes.length - written, written);
        // Cut after writing: a crash before this leaves the old tail, which the size check refuses.
        ftruncateSync(fd, bytes.length);
        await fsyncAsync(fd);
        closeSync(fd);
        renameSync(temp, target);
        return true;
      } catch (error) {
        try {
          closeSync(fd);
        } catch {
          // Closed already, by the close that failed.
        }
        removeTemp(temp);
        throw error;
      }
    }
    return false;
  }
}

/**
 * Takes `spare` by renaming it to `temp` and opens it for writing; undefined (nothing left at
 * `temp`) when it is gone or is not a plain file (a link or a folder put there by another hand,
 * which is left where it is).
 */
function claim(spare: string, temp: string): number | undefined {
  try {
    if (lstatSync(spare, { throwIfNoEntry: false })?.isFile() !== true) return undefined;
    renameSync(spare, temp);
  } catch {
    return undefined;
  }
  let fd: number | undefined;
  try {
    fd = openSync(temp, constants.O_WRONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    if (fstatSync(fd).isFile()) return fd;
  } catch {
    // Swapped for something else between the look and the rename: dropped below.
  }
  if (fd !== undefined) closeSync(fd);
  removeTemp(temp);
  return undefined;
}

function removeTemp(temp: string): void {
  try {
    unlinkSync(temp);
  } catch {
    // Left for the prune's sweep of temp files.
  }
}
