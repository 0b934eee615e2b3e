/**
 * Scan reconciliation (vmark-notes §7.6, spec §9.4), as a pure plan: what the workspace's
 * Markdown files say about the objects the ledger knows, and which entries record it. Writing
 * the plan is `scan.ts`'s job, so this module can be tested without a disk and a caller can
 * show a plan before committing it.
 */
import { createHash } from 'node:crypto';
import { canonicalize, contentHash, readIdentity, revisionId } from '../identity/index.js';
import { createEntry, type EntryFactory, type LedgerEntry } from '../ledger/index.js';
import type { KnownObject, ObjectIndex } from './object-index.js';
import {
  isWalkedMarkdownPath,
  type ScanDiagnostic,
  type WalkResult,
  type WorkspaceFile,
} from './walk-workspace.js';

export const OBSERVED_EXTERNAL = 'observed-external';

export interface Move {
  readonly object: string;
  /** Null when the ledger named the object but never recorded a path for it. */
  readonly from: string | null;
  readonly to: string;
}

export interface AbsentObject {
  readonly object: string;
  /** The last known path, where no file now carries the object's id. */
  readonly path: string;
}

export interface ReconciliationPlan {
  /** Entries to append, in order (a registration precedes its object's first revision). */
  readonly entries: LedgerEntry[];
  readonly diagnostics: ScanDiagnostic[];
  readonly moves: Move[];
  readonly absent: AbsentObject[];
  /** Known objects last seen where the walk could not look (skipped file or folder, cut-off listing). */
  readonly unverified: string[];
  /** Ids carried by more than one file: capture-hold until only one path carries each. */
  readonly held: string[];
}

/** What the walk could not see, so that missing is not mistaken for deleted. */
export type WalkCoverage = Pick<WalkResult, 'skipped' | 'skippedDirs' | 'complete'>;

export interface PlanOptions extends EntryFactory {
  /** Defaults to a complete walk that skipped nothing. */
  readonly coverage?: WalkCoverage;
}

interface Observed {
  readonly path: string;
  readonly contentHash: string;
  readonly schema: string | null;
}

/**
 * A stable idem for an observation, shaped as a UUID (version 8, i.e. custom). Two scans, by
 * this or another writer, that observe the same fact (the same revision of the same object,
 * or the same adoption) then dedupe to one effective entry on read instead of recording it
 * twice; a fact that differs in any part gets a different key.
 */
export function observationIdem(parts: readonly string[]): string {
  const digest = createHash('sha256')
    .update(`vmark-scan-idem\n${parts.join('\n')}\n`)
    .digest();
  digest[6] = ((digest[6] ?? 0) & 0x0f) | 0x80;
  digest[8] = ((digest[8] ?? 0) & 0x3f) | 0x80;
  const hex = digest.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

function observedTransformation(
  object: string,
  path: string,
  hash: string,
  parents: readonly string[],
  summary: string,
  factory: EntryFactory,
): LedgerEntry {
  const revision = revisionId(hash, parents);
  return createEntry(
    'transformation',
    {
      // Nothing is known about what the outside editor read, so no inputs (and no edges).
      inputs: [],
      outputs: [{ object, revision, content_hash: hash, parents: [...parents] }],
      agent: { type: 'external' },
      intent: { kind: OBSERVED_EXTERNAL, summary: `${summary}: ${path}` },
      confidence: 'unknown',
    },
    factory,
    observationIdem(['transformation', object, revision]),
  );
}

function isUnder(path: string, dirs: readonly string[]): boolean {
  return dirs.some((d) => path.startsWith(`${d}/`));
}

/**
 * Plans the entries that bring the ledger in line with `files`. Deterministic for the same
 * inputs and ids: files are taken in path order.
 */
export function planReconciliation(
  files: readonly WorkspaceFile[],
  known: ObjectIndex,
  options: PlanOptions,
): ReconciliationPlan {
  const factory: EntryFactory = { writer: options.writer, newId: options.newId, now: options.now };
  const coverage = options.coverage ?? { skipped: [], skippedDirs: [], complete: true };
  const entries: LedgerEntry[] = [];
  const diagnostics: ScanDiagnostic[] = [];
  const moves: Move[] = [];
  const absent: AbsentObject[] = [];
  const unverified: string[] = [];
  const held: string[] = [];

  const byId = new Map<string, Observed[]>();
  for (const file of [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))) {
    const canonical = canonicalize(file.bytes);
    // A binary file carries no front matter, so it can carry no identity.
    if (canonical.kind !== 'text') continue;
    const identity = readIdentity(canonical.text);
    // Files without an id are not objects yet; only a capture assigns one.
    if (identity.id === null) continue;
    const list = byId.get(identity.id) ?? [];
    list.push({ path: file.path, contentHash: contentHash(canonical, file.bytes), schema: identity.schema });
    byId.set(identity.id, list);
  }

  for (const [object, seen] of [...byId].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const [only, ...others] = seen;
    if (only === undefined) continue;
    if (others.length > 0) {
      // Which copy is "the" object is a human decision; recording either would take it for them.
      held.push(object);
      diagnostics.push({
        code: 'duplicate-id',
        object,
        path: only.path,
        message: `id ${object} is carried by ${seen.length} files: ${seen.map((s) => s.path).join(', ')}`,
      });
      continue;
    }
    const entry = known.get(object);
    if (entry === undefined) {
      entries.push(...adopt(object, only, factory));
      continue;
    }
    if (entry.path !== only.path) moves.push({ object, from: entry.path, to: only.path });
    const planned = reconcileKnown(entry, only, factory);
    if ('diagnostic' in planned) diagnostics.push(planned.diagnostic);
    else entries.push(...planned.entries);
  }

  const skipped = new Set(coverage.skipped);
  for (const entry of known.values()) {
    if (byId.has(entry.object)) continue;
    // No recorded path, or one this walk never looks at (a binary, a skipped folder): a
    // Markdown scan has nothing to say about where such an object is.
    if (entry.path === null || !isWalkedMarkdownPath(entry.path)) continue;
    const hidden = !coverage.complete || skipped.has(entry.path) || isUnder(entry.path, coverage.skippedDirs);
    if (hidden) unverified.push(entry.object);
    else absent.push({ object: entry.object, path: entry.path });
  }

  return { entries, diagnostics, moves, absent, unverified, held };
}

/** A file carrying an id the ledger has never seen: register it and record its content as a root. */
function adopt(object: string, seen: Observed, factory: EntryFactory): LedgerEntry[] {
  const registration = createEntry(
    'object-registered',
    { object, path: seen.path, schema: seen.schema, derived_from: [] },
    factory,
    observationIdem(['object-registered', object, seen.path]),
  );
  return [registration, observedTransformation(object, seen.path, seen.contentHash, [], 'adopted', factory)];
}

type KnownOutcome = { readonly entries: LedgerEntry[] } | { readonly diagnostic: ScanDiagnostic };

function reconcileKnown(entry: KnownObject, seen: Observed, factory: EntryFactory): KnownOutcome {
  const { object } = entry;
  // Content equal to any head is a state the ledger already records (e.g. one side of a fork
  // checked out): nothing happened that needs a revision.
  if (entry.heads.some((h) => h.contentHash === seen.contentHash)) return { entries: [] };

  // git: before minting, the classifier goes here, in this order (spec §9.4): MERGE_HEAD
  // present ⇒ a git mutation (merge) ⇒ a `git`-agent transformation; a new HEAD sha produced
  // by revert/merge ⇒ likewise; HEAD moved to an existing sha (checkout, reset, branch or
  // worktree switch) ⇒ a `navigation` entry only, never a revision. Until it exists every
  // change is taken as an outside edit, the spec's fallback.

  if (entry.heads.length === 0) {
    // Registered but never given a revision (e.g. an adoption interrupted between its two
    // appends): the file is the first content seen, so it is a root, as adoption records it.
    return { entries: [observedTransformation(object, seen.path, seen.contentHash, [], 'adopted', factory)] };
  }
  const [head, ...otherHeads] = entry.heads;
  if (head === undefined || otherHeads.length > 0) {
    // Two heads and content matching neither: the outside edit descends from one of them, or
    // both, and a parent list would be a guess. A human (or a capture) must settle the fork.
    return {
      diagnostic: {
        code: 'ambiguous-heads',
        object,
        path: seen.path,
        message: `${object} has ${entry.heads.length} heads and the file matches none; not recorded`,
      },
    };
  }
  return {
    entries: [
      observedTransformation(
        object,
        seen.path,
        seen.contentHash,
        [head.revision],
        'external edit observed',
        factory,
      ),
    ],
  };
}
