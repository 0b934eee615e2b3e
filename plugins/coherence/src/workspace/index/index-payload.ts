/**
 * What the on-disk index holds (ADR 46), how it is written as text, and the check that a text
 * read back has that shape. A payload passes the file's checksum before it gets here; this
 * keeps a well-formed file of another shape (another build, a hand edit) from being believed.
 *
 * The text (format version 3, ADR 77): one line of JSON with everything but the walked files,
 * then one line per walked file, in the walk's order:
 *
 *     path \t signature \t id \t schema \t contentHash
 *
 * `signature` is the walk cache's stat signature (`dev:ino:size:mtimeNs:ctimeNs`) when the
 * cache vouches for the very digest the answer rests on, else empty (it is only ever compared
 * whole with one made from a new `lstat`, so a malformed one just never matches); `id`, `schema` and
 * `contentHash` are empty for a file without an identity (and `schema` for a null one). A field
 * that could be read otherwise (empty, starting with `"`, holding a tab or a line break) is
 * written as a JSON string. One row a file, with the signature beside the digest, instead of
 * two JSON lists of 20,000 arrays each: half the bytes, and no parse into arrays to throw away.
 */
import { z } from '@vmark/sdk';
import type { SegmentMark } from '../../kernel/ledger/index.js';
import type { FileDigest } from '../../kernel/scan/index.js';
import type { McpEdgeRow } from '../edge-rows.js';

/** The walk an answer rests on: each file's path and digest, and the cache's signature for it. */
export interface IndexedFiles {
  /** Sorted as the walk sorts them. */
  readonly paths: readonly string[];
  /** Null: the file carries no identity. */
  readonly digests: readonly (FileDigest | null)[];
  /** The stat signature the digest was read with, or null: not vouched for (the file is read again). */
  readonly signatures: readonly (string | null)[];
}

export interface IndexPayload {
  /** The workspace it was made for: its canonical root and the root folder's device and inode. */
  readonly workspace: { readonly root: string; readonly dev: string; readonly ino: string };
  /** Where the ledger stood when the answer was made. */
  readonly segments: readonly SegmentMark[];
  /** The walk the answer rests on, and the signatures that let a new walk skip reading unchanged files. */
  readonly files: IndexedFiles;
  /** The rest of that walk's result (what it could not see), as JSON. */
  readonly coverage: string;
  /** The git state the scan saw (JSON), and HEAD as the scan remembered it. */
  readonly git: string;
  readonly lastHead: string | null;
  /** Moves the scan had seen (index updates, never ledger entries). */
  readonly observedPaths: readonly (readonly [string, string])[];
  /** The context the edges were projected in, and when the first waiver in force runs out (null: none). */
  readonly context: string;
  readonly until: number | null;
  readonly edges: readonly McpEdgeRow[];
}

const decimal = z.string().regex(/^\d+$/);
const count = z.number().int().nonnegative();

const head = z.object({
  workspace: z.object({ root: z.string(), dev: decimal, ino: decimal }),
  segments: z.array(
    z.object({ name: z.string(), size: count, parsed: count, tailLength: count, tail: z.string() }),
  ),
  files: count,
  coverage: z.string(),
  git: z.string(),
  lastHead: z.string().nullable(),
  observedPaths: z.array(z.tuple([z.string(), z.string()])),
  context: z.string(),
  until: z.number().nullable(),
  edges: z.array(
    z.object({
      txf: z.string(),
      input: count,
      upstream: z.string(),
      upstream_path: z.string().nullable(),
      pinned: z.string(),
      downstream: z.string(),
      downstream_path: z.string().nullable(),
      downstream_rev: z.string(),
      confidence: z.string(),
      state: z.string(),
      prior_waivers: count,
      kind: z.string(),
      frozen_downstream: z.boolean(),
      actionable: z.boolean(),
    }),
  ),
});

const UNSAFE = /[\t\n\r]/;

/** A field as written: empty for null, a JSON string where the bare text could be misread. */
function field(value: string | null): string {
  if (value === null) return '';
  return value === '' || value.charCodeAt(0) === 0x22 || UNSAFE.test(value) ? JSON.stringify(value) : value;
}

/** A field read back: null for empty, undefined when it is no field this writes. */
function unfield(text: string): string | null | undefined {
  if (text === '') return null;
  if (text.charCodeAt(0) !== 0x22) return text;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}

/** The payload as the index file's text. */
export function encodeIndexPayload(payload: IndexPayload): string {
  const { files, ...rest } = payload;
  const lines = [JSON.stringify({ ...rest, files: files.paths.length })];
  for (let i = 0; i < files.paths.length; i++) {
    const digest = files.digests[i] ?? null;
    lines.push(
      `${field(files.paths[i] as string)}\t${files.signatures[i] ?? ''}\t${field(digest?.id ?? null)}\t${field(
        digest?.schema ?? null,
      )}\t${field(digest?.contentHash ?? null)}`,
    );
  }
  return lines.join('\n');
}

/** The payload when `text` has the index's shape, else null. */
export function parseIndexPayload(text: string | null): IndexPayload | null {
  if (text === null) return null;
  let end = text.indexOf('\n');
  if (end < 0) end = text.length;
  let meta: unknown;
  try {
    meta = JSON.parse(text.slice(0, end));
  } catch {
    return null;
  }
  const parsed = head.safeParse(meta);
  if (!parsed.success) return null;
  const { files: total, ...rest } = parsed.data;
  const files = parseRows(text, end, total);
  return files === null ? null : { ...rest, files };
}

/** `total` rows after the line ending at `from`, each a line of its own (none after the last). */
function parseRows(text: string, from: number, total: number): IndexedFiles | null {
  const paths: string[] = [];
  const digests: (FileDigest | null)[] = [];
  const signatures: (string | null)[] = [];
  let at = from;
  for (let row = 0; row < total; row++) {
    if (at >= text.length) return null;
    const start = at + 1;
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    const t1 = text.indexOf('\t', start);
    const t2 = t1 < 0 ? -1 : text.indexOf('\t', t1 + 1);
    const t3 = t2 < 0 ? -1 : text.indexOf('\t', t2 + 1);
    const t4 = t3 < 0 ? -1 : text.indexOf('\t', t3 + 1);
    const t5 = t4 < 0 ? -1 : text.indexOf('\t', t4 + 1);
    if (t4 < 0 || t4 > end || (t5 >= 0 && t5 < end)) return null;
    const path = unfield(text.slice(start, t1));
    const signature = text.slice(t1 + 1, t2);
    const id = unfield(text.slice(t2 + 1, t3));
    const schema = unfield(text.slice(t3 + 1, t4));
    const hash = unfield(text.slice(t4 + 1, end));
    if (typeof path !== 'string' || id === undefined || schema === undefined || hash === undefined)
      return null;
    // The walk's order, which the comparison with a new walk relies on.
    const previous = paths[paths.length - 1];
    if (previous !== undefined && !(previous < path)) return null;
    if (id === null) {
      if (schema !== null || hash !== null) return null;
      digests.push(null);
    } else {
      if (hash === null) return null;
      digests.push({ id, schema, contentHash: hash });
    }
    paths.push(path);
    signatures.push(signature === '' ? null : signature);
    at = end;
  }
  return at >= text.length ? { paths, digests, signatures } : null;
}
