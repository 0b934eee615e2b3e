/**
 * The names of the files vmark keeps for a moment beside a file it saves: the temp file that
 * is renamed over the target, and the lock two vmark processes take turns at. Every such name
 * starts with a dot and ends with `TEMP_SUFFIX`, so folder watchers and listings pass over
 * them, and a temp file names the process that made it, so one left by a crash can be removed.
 */
import path from 'node:path';
import { ownerTag, parseOwnerTag, type ProcessOwner } from './process-owner.js';
import { randomHex } from './random-draws.js';

/** Ends the name of every temp file, so that watchers and listings can skip them. */
export const TEMP_SUFFIX = '.vmark-tmp';

// Room left under NAME_MAX (255 bytes) for the dot, the owner tag, the random part and the suffix.
const MAX_STEM_BYTES = 180;

/** `.<stem>.<owner>.<12 hex>.vmark-tmp`. */
const OWNED_TEMP = /^\.(.*)\.([0-9a-f]{6}-(?:[0-9a-f]{6})?-[0-9]+)\.[0-9a-f]{12}\.vmark-tmp$/s;
/** `.<stem>.<12 hex>.vmark-tmp`: the form of earlier versions, without an owner. */
const ANONYMOUS_TEMP = /^\..*\.[0-9a-f]{12}\.vmark-tmp$/s;

function stemOf(basename: string): string {
  let stem = '';
  for (const char of basename) {
    if (Buffer.byteLength(stem + char) > MAX_STEM_BYTES) break;
    stem += char;
  }
  return stem;
}

/** A fresh temp file name beside `target`, naming this process. */
export function tempPathFor(target: string): string {
  const name = `.${stemOf(path.basename(target))}.${ownerTag()}.${randomHex(6)}${TEMP_SUFFIX}`;
  return path.join(path.dirname(target), name);
}

/** The lock that vmark processes saving `target` take turns at. */
export function saveLockPathFor(target: string): string {
  return path.join(path.dirname(target), `.${stemOf(path.basename(target))}.lock${TEMP_SUFFIX}`);
}

export type TempFileName =
  | { readonly kind: 'temp'; readonly owner: ProcessOwner }
  | { readonly kind: 'anonymous-temp' }
  | { readonly kind: 'lock' }
  /** A lock set aside while it was taken from a holder that had ended (`file-lock.ts`). */
  | { readonly kind: 'lock-aside' }
  | { readonly kind: 'other' };

/** What a file name in a document folder is, as far as vmark's own temp files go. */
export function classifyTempName(name: string): TempFileName {
  if (!name.startsWith('.') || !name.endsWith(TEMP_SUFFIX)) return { kind: 'other' };
  if (name.endsWith(`.lock${TEMP_SUFFIX}`)) return { kind: 'lock' };
  if (name.endsWith(`.stale${TEMP_SUFFIX}`)) return { kind: 'lock-aside' };
  const owned = OWNED_TEMP.exec(name);
  const owner = owned ? parseOwnerTag(owned[2]!) : null;
  if (owner) return { kind: 'temp', owner };
  return ANONYMOUS_TEMP.test(name) ? { kind: 'anonymous-temp' } : { kind: 'other' };
}
