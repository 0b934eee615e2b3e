/**
 * Unsaved edits kept when an editor host stops (ADR 34): one JSON file per dirty buffer in
 * `$VMARK_HOME/recovery/` (0700), never beside the documents and never over them. The next
 * editor host offers them back; restoring or discarding one removes its file.
 *
 * Several hosts may share one VMARK_HOME: a copy is claimed by renaming its file before it is
 * restored, so that two windows (or two hosts) never restore the same edits twice.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { z } from '@vmark/sdk';
import { writeFileAtomic } from '../../vault/atomic-write.js';
import { errorCode } from '@vmark/sdk';

export const RECOVERY_FOLDER = 'recovery';
const SUFFIX = '.json';
const CLAIMED = '.claimed';

/** `rec-` + 16 random hex digits: also the file's name, so nothing else may pass for one. */
const RECOVERY_ID = /^rec-[0-9a-f]{16}$/;

const copySchema = z.object({
  format: z.literal(1),
  id: z.string().regex(RECOVERY_ID),
  /** Canonical path of the document's file; null for an untitled buffer. */
  filePath: z.string().nullable(),
  kind: z.string().min(1),
  content: z.string(),
  /** ISO 8601: when the host stopped. */
  keptAt: z.string(),
  /** SHA-256 of the file's bytes then (null: no file, or unknown), to tell whether it changed since. */
  diskSha256: z.string().nullable(),
  /** The buffer and its file disagreed then (ADR 24): the kept text was not made from the disk's. */
  conflict: z.boolean(),
});

export type RecoveryCopy = z.infer<typeof copySchema>;

/** What is kept of one dirty buffer; the store adds the id and the format. */
export type NewRecoveryCopy = Omit<RecoveryCopy, 'format' | 'id'>;

export class RecoveryCopies {
  readonly #folder: string;

  constructor(home: string) {
    this.#folder = path.join(home, RECOVERY_FOLDER);
  }

  async keep(copy: NewRecoveryCopy): Promise<RecoveryCopy> {
    await fs.mkdir(this.#folder, { recursive: true, mode: 0o700 });
    const kept: RecoveryCopy = { format: 1, id: newRecoveryId(), ...copy };
    await writeFileAtomic(this.#file(kept.id), JSON.stringify(kept) + '\n');
    return kept;
  }

  /** Every copy waiting, oldest first. A file that does not parse is left alone and not offered. */
  async list(): Promise<RecoveryCopy[]> {
    let names: string[];
    try {
      names = await fs.readdir(this.#folder);
    } catch (error) {
      if (errorCode(error) === 'ENOENT') return [];
      throw error;
    }
    const copies = await Promise.all(
      names
        .filter((name) => name.endsWith(SUFFIX) && RECOVERY_ID.test(name.slice(0, -SUFFIX.length)))
        .map((name) => this.#read(path.join(this.#folder, name))),
    );
    return copies
      .filter((copy): copy is RecoveryCopy => copy !== null)
      .sort((a, b) => a.keptAt.localeCompare(b.keptAt));
  }

  /**
   * Takes a copy out of the offer for one restore: the file is renamed, so another window or host
   * asking for it finds nothing. `put back` returns it when the restore fails; `done` removes it.
   * @returns null when no such copy is waiting (never kept, or already restored or discarded).
   */
  async claim(
    id: string,
  ): Promise<{ copy: RecoveryCopy; putBack(): Promise<void>; done(): Promise<void> } | null> {
    if (!RECOVERY_ID.test(id)) return null;
    const file = this.#file(id);
    const claimed = file + CLAIMED;
    try {
      await fs.rename(file, claimed);
    } catch (error) {
      if (errorCode(error) === 'ENOENT') return null;
      throw error;
    }
    const copy = await this.#read(claimed);
    if (copy === null || copy.id !== id) {
      await fs.rename(claimed, file);
      return null;
    }
    return {
      copy,
      putBack: () => fs.rename(claimed, file),
      done: () => fs.rm(claimed, { force: true }),
    };
  }

  /** @returns false when no such copy was waiting. */
  async discard(id: string): Promise<boolean> {
    const claimed = await this.claim(id);
    await claimed?.done();
    return claimed !== null;
  }

  #file(id: string): string {
    return path.join(this.#folder, id + SUFFIX);
  }

  async #read(file: string): Promise<RecoveryCopy | null> {
    try {
      const parsed = copySchema.safeParse(JSON.parse(await fs.readFile(file, 'utf8')));
      return parsed.success ? parsed.data : null;
    } catch {
      return null;
    }
  }
}

function newRecoveryId(): string {
  return `rec-${randomBytes(8).toString('hex')}`;
}
