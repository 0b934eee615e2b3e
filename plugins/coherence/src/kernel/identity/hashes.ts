/**
 * Content hashes and revision ids (format 0, spec §2.3, §3.2, §3.4).
 *
 * content_hash = "sha256:" + hex(SHA-256(bytes)), where bytes are the UTF-8 of the
 * identity-masked canonical text for text, and the raw file bytes for binary content.
 *
 * revision_id = "rev1:" + hex(SHA-256(preimage)) with the preimage (UTF-8, all ASCII):
 *
 *     "vmark-rev\n" + content_hash + "\n" + p_1 + "\n" + p_2 + "\n" + … + p_n + "\n"
 *
 * i.e. EVERY parent is followed by "\n", including the last, and parents are sorted
 * lexicographically (by code unit, which for these ASCII strings is byte order, as Rust's
 * `sort_unstable` on `&str`). Zero parents (a root revision) leaves exactly
 * "vmark-rev\n" + content_hash + "\n". This is the spec §2.3 layout and the original's
 * `RevisionId::compute` (which writes `p` then `\n` per parent). Duplicate parents are NOT
 * removed, also as the original; callers should not pass them.
 */
import { createHash } from 'node:crypto';

import type { Canonical } from './canonical-text.js';
import { canonicalize } from './canonical-text.js';
import { maskIdentity } from './identity-lines.js';

const CONTENT_HASH_RE = /^sha256:[0-9a-f]{64}$/;
const REVISION_ID_RE = /^rev1:[0-9a-f]{64}$/;
const encoder = new TextEncoder();

const sha256Hex = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

export const isContentHash = (s: string): boolean => CONTENT_HASH_RE.test(s);
export const isRevisionId = (s: string): boolean => REVISION_ID_RE.test(s);

/**
 * Hash of a canonicalised document. `rawBytes` is only read for binary content (which
 * has no canonical form); for text the canonical text alone decides.
 */
export function contentHash(canonical: Canonical, rawBytes: Uint8Array): string {
  const bytes = canonical.kind === 'text' ? encoder.encode(maskIdentity(canonical.text)) : rawBytes;
  return `sha256:${sha256Hex(bytes)}`;
}

/** Canonicalise and hash file bytes in one step. */
export function contentHashOfBytes(rawBytes: Uint8Array): string {
  return contentHash(canonicalize(rawBytes), rawBytes);
}

/** The exact bytes hashed by `revisionId`; exported so tests and tools can show them. */
export function revisionPreimage(contentHash: string, parents: readonly string[]): string {
  if (!isContentHash(contentHash)) throw new RangeError(`not a content hash: ${JSON.stringify(contentHash)}`);
  for (const p of parents) {
    if (!isRevisionId(p)) throw new RangeError(`not a revision id: ${JSON.stringify(p)}`);
  }
  const sorted = [...parents].sort();
  return `vmark-rev\n${contentHash}\n${sorted.map((p) => `${p}\n`).join('')}`;
}

export function revisionId(contentHash: string, parents: readonly string[]): string {
  return `rev1:${sha256Hex(encoder.encode(revisionPreimage(contentHash, parents)))}`;
}
