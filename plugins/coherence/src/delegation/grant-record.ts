/**
 * The person's record of the grants they made (ADR 23): a second copy of every live grant,
 * kept in `$VMARK_HOME`, which no client can write (the tools never reach it), so that editing
 * the workspace's ledger cannot make or revive authority. Our addition: the ledger itself stays
 * format 0, as the original reads it.
 *
 * Layout: `$VMARK_HOME/coherence-grants/<workspace key>/<grant id>.json`, one small file per live
 * grant (0600, folders 0700), written to a temporary name and renamed. Separate files need no
 * lock between two `vmark coherence` commands at once, and damage stays with its own grant.
 * Revoked and expired grants are removed: only live ones need a second copy, and a grant that is
 * absent here authorizes nothing. Bounded: at most `MAX_RECORDED_GRANTS` per workspace, each
 * file at most `MAX_RECORD_BYTES`; anything beyond, or unreadable, authorizes nothing.
 */
import { createHash } from 'node:crypto';
import { constants } from 'node:fs';
import { lstat, mkdir, open, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { errorCode, z } from '@vmark/sdk';
import { isUuid } from '../kernel/identity/index.js';
import { parseTime } from '../kernel/ledger/index.js';
import { writeWhole } from '../files/write-whole.js';

export const GRANTS_FOLDER = 'coherence-grants';
export const MAX_RECORDED_GRANTS = 256;
export const MAX_RECORD_BYTES = 4096;

const RECORD_FORMAT = 1;
const GRANT_FILE = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.json$/;

const recordSchema = z.strictObject({
  format: z.literal(RECORD_FORMAT),
  workspace: z.string(),
  grant: z.string().refine(isUuid),
  entry: z.string().refine(isUuid),
  delegate: z.string().min(1),
  scope: z.array(z.string()).min(1),
  expires: z.string().refine((t) => parseTime(t) !== null),
});

/** One live grant as the person's record states it. */
export interface RecordedGrant {
  readonly grant: string;
  /** The ledger entry that states the grant (its current entry when it was made). */
  readonly entry: string;
  readonly delegate: string;
  readonly scope: readonly string[];
  readonly expires: string;
}

/** The record cannot take a grant now; nothing authorizes more than before. */
export class GrantRecordError extends Error {
  override readonly name = 'GrantRecordError';
}

export type GrantRecordRead =
  | {
      readonly readable: true;
      readonly grants: readonly RecordedGrant[];
      /** Grant files that could not be read: their grants authorize nothing. */
      readonly damaged: readonly { readonly grant: string; readonly reason: string }[];
    }
  | { readonly readable: false; readonly reason: string };

export class GrantRecord {
  readonly #folder: string;

  constructor(home: string) {
    this.#folder = path.join(home, GRANTS_FOLDER);
  }

  /** The folder holding one workspace's grants; keyed by a digest of its canonical root. */
  folderOf(root: string): string {
    return path.join(this.#folder, createHash('sha256').update(root, 'utf8').digest('hex').slice(0, 32));
  }

  /** What the record says about `root`. A missing record is an empty one; nothing here throws. */
  async read(root: string): Promise<GrantRecordRead> {
    const folder = this.folderOf(root);
    let names: string[];
    try {
      names = await readdir(folder);
    } catch (error) {
      if (errorCode(error) === 'ENOENT') return { readable: true, grants: [], damaged: [] };
      return { readable: false, reason: `${folder} cannot be listed (${codeOf(error)})` };
    }
    const files = names.filter((n) => GRANT_FILE.test(n));
    // More than this installation ever writes: someone else filled it in.
    if (files.length > MAX_RECORDED_GRANTS)
      return {
        readable: false,
        reason: `${folder} holds ${files.length} grants, more than ${MAX_RECORDED_GRANTS}`,
      };
    const grants: RecordedGrant[] = [];
    const damaged: { grant: string; reason: string }[] = [];
    const reads = files.map(async (name) => {
      const grant = GRANT_FILE.exec(name)![1]!;
      return { grant, read: await readGrantFile(path.join(folder, name), root, grant) };
    });
    for (const { grant, read } of await Promise.all(reads)) {
      if (typeof read === 'string') damaged.push({ grant, reason: read });
      else grants.push(read);
    }
    return { readable: true, grants, damaged };
  }

  /**
   * Removes the grants of `root` that expired by `now`, then refuses when no room is left for
   * one more. Called before a grant is written anywhere, so a refusal writes nothing.
   * @throws GrantRecordError when the record cannot be read or holds `MAX_RECORDED_GRANTS` grants.
   */
  async makeRoom(root: string, now: Date): Promise<void> {
    const read = await this.read(root);
    if (!read.readable)
      throw new GrantRecordError(
        `the grant record cannot be read: ${read.reason}; repair or remove it first`,
      );
    const expired = read.grants.filter((g) => (parseTime(g.expires)?.epochMs ?? 0) <= now.getTime());
    for (const g of expired) await this.remove(root, g.grant);
    if (read.grants.length - expired.length + read.damaged.length >= MAX_RECORDED_GRANTS)
      throw new GrantRecordError(
        `this workspace already has ${MAX_RECORDED_GRANTS} live grants; revoke some first (vmark coherence delegations)`,
      );
  }

  /** Records a live grant: a new file, written whole or not at all. */
  async add(root: string, grant: RecordedGrant): Promise<void> {
    const text = JSON.stringify({ format: RECORD_FORMAT, workspace: root, ...grant }) + '\n';
    if (Buffer.byteLength(text, 'utf8') > MAX_RECORD_BYTES)
      throw new RangeError(
        `a grant record must stay under ${MAX_RECORD_BYTES} bytes: the client name is too long`,
      );
    const folder = this.folderOf(root);
    await mkdir(folder, { recursive: true, mode: 0o700 });
    await writeWhole(path.join(folder, `${grant.grant}.json`), text);
  }

  /** Forgets a grant; true when it was recorded. */
  async remove(root: string, grant: string): Promise<boolean> {
    const file = path.join(this.folderOf(root), `${grant.toLowerCase()}.json`);
    const existed = await lstat(file).then(
      () => true,
      () => false,
    );
    await rm(file, { force: true });
    return existed;
  }
}

/** One grant file, or the reason it authorizes nothing. */
async function readGrantFile(file: string, root: string, grant: string): Promise<RecordedGrant | string> {
  let text: string;
  try {
    text = await readBounded(file);
  } catch (error) {
    return error instanceof RangeError ? error.message : `unreadable (${codeOf(error)})`;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return 'not JSON';
  }
  const parsed = recordSchema.safeParse(value);
  if (!parsed.success) return 'not a grant record';
  const { workspace, format: _format, ...recorded } = parsed.data;
  // A file copied from another workspace's record, or renamed, is not this grant.
  if (workspace !== root || recorded.grant.toLowerCase() !== grant) return 'names another grant or workspace';
  return { ...recorded, grant, entry: recorded.entry.toLowerCase() };
}

/**
 * A regular file's text, at most `MAX_RECORD_BYTES`. Never follows a link, never waits on a FIFO.
 * @throws RangeError naming what the file is instead.
 */
async function readBounded(file: string): Promise<string> {
  const flags = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);
  const handle = await open(file, flags);
  try {
    if (!(await handle.stat()).isFile()) throw new RangeError('not a regular file');
    const buffer = Buffer.alloc(MAX_RECORD_BYTES + 1);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    if (bytesRead > MAX_RECORD_BYTES) throw new RangeError(`larger than ${MAX_RECORD_BYTES} bytes`);
    return buffer.subarray(0, bytesRead).toString('utf8');
  } finally {
    await handle.close();
  }
}

function codeOf(error: unknown): string {
  return errorCode(error) ?? String(error);
}
