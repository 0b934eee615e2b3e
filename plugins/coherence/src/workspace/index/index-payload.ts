/**
 * What the on-disk index holds (ADR 46), and the check that a payload read back has that
 * shape. A payload passes the file's checksum before it gets here; this keeps a well-formed
 * file of another shape (another build, a hand edit) from being believed as well.
 */
import { z } from '@vmark/sdk';
import type { SegmentMark } from '../../kernel/ledger/index.js';
import type { SavedWalkEntry } from '../../kernel/scan/index.js';
import type { McpEdgeRow } from '../edge-rows.js';

/** A walked file's path and digest (`[id, schema, contentHash]`, or null: no identity). */
export type WalkedDigest = readonly [path: string, digest: readonly [string, string | null, string] | null];

export interface IndexPayload {
  /** The workspace it was made for: its canonical root and the root folder's device and inode. */
  readonly workspace: { readonly root: string; readonly dev: string; readonly ino: string };
  /** Where the ledger stood when the answer was made. */
  readonly segments: readonly SegmentMark[];
  /** The walk's stat signatures, so that a new process hashes only files that changed. */
  readonly cache: readonly SavedWalkEntry[];
  /** The walk the answer rests on: every file's digest, and the rest of its result as JSON. */
  readonly walk: { readonly files: readonly WalkedDigest[]; readonly coverage: string };
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

// The two long lists (one row per file) are checked by hand below: a schema library takes
// ten times as long over 20,000 rows, and this check is on a new process' first answer.
const schema = z.object({
  workspace: z.object({ root: z.string(), dev: decimal, ino: decimal }),
  segments: z.array(
    z.object({ name: z.string(), size: count, parsed: count, tailLength: count, tail: z.string() }),
  ),
  cache: z.array(z.unknown()),
  walk: z.object({ files: z.array(z.unknown()), coverage: z.string() }),
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

const DECIMAL = /^\d+$/;

function isDigest(value: unknown): boolean {
  if (value === null) return true;
  if (!Array.isArray(value) || value.length !== 3) return false;
  const [id, schema, hash] = value as unknown[];
  return (
    typeof id === 'string' && (schema === null || typeof schema === 'string') && typeof hash === 'string'
  );
}

function isCacheRow(value: unknown): value is SavedWalkEntry {
  if (!Array.isArray(value) || value.length !== 7 || typeof value[0] !== 'string') return false;
  for (let i = 1; i < 6; i++) {
    const field: unknown = value[i];
    if (typeof field !== 'string' || !DECIMAL.test(field)) return false;
  }
  return isDigest(value[6]);
}

function isWalkedDigest(value: unknown): value is WalkedDigest {
  return Array.isArray(value) && value.length === 2 && typeof value[0] === 'string' && isDigest(value[1]);
}

/** The payload when `value` has the index's shape, else null. */
export function parseIndexPayload(value: unknown): IndexPayload | null {
  const parsed = schema.safeParse(value);
  if (!parsed.success) return null;
  const { cache, walk } = parsed.data;
  if (!cache.every(isCacheRow) || !walk.files.every(isWalkedDigest)) return null;
  return { ...parsed.data, cache, walk: { ...walk, files: walk.files } };
}
