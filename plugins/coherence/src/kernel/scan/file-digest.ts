/**
 * What scan reconciliation needs of a Markdown file, and all it needs: the identity it carries
 * and its content hash. Computed here and nowhere else, so that a digest remembered from an
 * earlier walk (walk-workspace.ts, `WalkCache`) and one computed from fresh bytes are the same.
 */
import { canonicalize, contentHash, readIdentity } from '../identity/index.js';

export interface FileDigest {
  /** `vmark.id`, lower-case. */
  readonly id: string;
  readonly schema: string | null;
  /** `sha256:…` of the identity-masked canonical text. */
  readonly contentHash: string;
}

/**
 * The digest of a file's bytes, or null when the file is no object: binary (not UTF-8), or
 * text without a readable `vmark.id` (only a capture assigns one).
 */
export function digestFile(bytes: Uint8Array): FileDigest | null {
  const canonical = canonicalize(bytes);
  // A binary file carries no front matter, so it can carry no identity.
  if (canonical.kind !== 'text') return null;
  const identity = readIdentity(canonical.text);
  if (identity.id === null) return null;
  return { id: identity.id, schema: identity.schema, contentHash: contentHash(canonical, bytes) };
}

/** A walked file's digest: the one the walk brought along, else computed from its bytes. */
export function digestOf(file: {
  readonly bytes?: Uint8Array;
  readonly digest?: FileDigest | null;
}): FileDigest | null {
  if (file.digest !== undefined) return file.digest;
  return file.bytes === undefined ? null : digestFile(file.bytes);
}
