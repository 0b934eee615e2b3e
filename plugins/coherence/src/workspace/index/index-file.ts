/**
 * The on-disk index's file (ADR 46): `<workspace>/.vmark/index/coherence.json`, in a folder
 * that ignores itself for git. A header line names the format, its version, the payload's
 * length and its SHA-256; the payload follows. Anything that does not check out — absent,
 * truncated, flipped bytes, another format or version — reads as no index: it is derived and
 * rebuildable, so it is rebuilt, never repaired and never believed.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { errorCode } from '@vmark/sdk';
import { writeWhole } from '../../files/write-whole.js';

export const INDEX_DIR = 'index';
export const INDEX_FILE = 'coherence.json';
const FORMAT = 'vmark-coherence-index';
/**
 * Bumped whenever the payload, or what the answers in it mean, changes: an older index is
 * rebuilt. 3: the payload is a JSON line and one text row per walked file (ADR 77).
 */
export const INDEX_VERSION = 3;
const MAX_INDEX_BYTES = 512 * 1024 * 1024;

export const indexPath = (vmarkDir: string): string => path.join(vmarkDir, INDEX_DIR, INDEX_FILE);

const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

/** The payload (text) of a sound index file of this version, else null (whatever is wrong with it). */
export async function readIndexFile(vmarkDir: string): Promise<string | null> {
  let bytes: Buffer;
  try {
    // Bounded: a file that large is no index this writes (20,000 documents make about 8 MB).
    if ((await stat(indexPath(vmarkDir))).size > MAX_INDEX_BYTES) return null;
    bytes = await readFile(indexPath(vmarkDir));
  } catch {
    return null; // absent, or unreadable: rebuilt like a damaged one
  }
  const newline = bytes.indexOf(0x0a);
  if (newline < 0) return null;
  let header: unknown;
  try {
    header = JSON.parse(bytes.subarray(0, newline).toString('utf8'));
  } catch {
    return null;
  }
  if (typeof header !== 'object' || header === null) return null;
  const { format, version, length, sha256: digest } = header as Record<string, unknown>;
  const payload = bytes.subarray(newline + 1);
  if (format !== FORMAT || version !== INDEX_VERSION) return null;
  if (length !== payload.length || digest !== sha256(payload)) return null;
  return payload.toString('utf8');
}

/**
 * Replaces the index file atomically (temp + fsync + rename). Only where `.vmark/` exists: an
 * index never initializes a workspace (vmark-notes §7.1); false when there was none.
 */
export async function writeIndexFile(vmarkDir: string, payload: string): Promise<boolean> {
  const dir = path.join(vmarkDir, INDEX_DIR);
  try {
    await mkdir(dir);
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return false;
    if (errorCode(error) !== 'EEXIST') throw error;
  }
  // Derived data, never shared: the folder keeps itself out of git, whatever `.vmark/.gitignore` says.
  await writeFile(path.join(dir, '.gitignore'), '*\n', { flag: 'wx' }).catch((error: unknown) => {
    if (errorCode(error) !== 'EEXIST') throw error;
  });
  const body = Buffer.from(payload, 'utf8');
  const header = JSON.stringify({
    format: FORMAT,
    version: INDEX_VERSION,
    length: body.length,
    sha256: sha256(body),
  });
  await writeWhole(indexPath(vmarkDir), Buffer.concat([Buffer.from(`${header}\n`, 'utf8'), body]), 0o644);
  return true;
}
