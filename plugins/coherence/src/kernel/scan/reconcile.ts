/**
 * Scan reconciliation (vmark-notes §7.6, spec §9.4), as a pure plan: what the workspace's
 * Markdown files say about the objects the ledger knows, and which entries record it. Writing
 * the plan is `scan.ts`'s job, so this module can be tested without a disk and a caller can
 * show a plan before committing it.
 */
import { createHash } from 'node:crypto';
import { revisionId } from '../identity/index.js';
import { createEntry, type BodyOf, type EntryFactory, type LedgerEntry } from '../ledger/index.js';
import { digestOf } from './file-digest.js';
import type { GitClassification } from './git-classifier.js';
import type { KnownObject, ObjectIndex } from './object-index.js';
import {
  isWalkedMarkdownPath,
  type ScanDiagnostic,
  type WalkResult,
  type WorkspaceFile,
} from './walk-workspace.js';

export const OBSERVED_EXTERNAL = 'observed-external';
/** Intent kind of a revision git wrote, e.g. `git-merge` (agent `git`). */
export const GIT_INTENT_PREFIX = 'git-';

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
  /** What git did since the last scan; absent when the workspace has no git. */
  readonly git?: GitClassification;
  /**
   * Plan for these objects only (the files carrying them, and whether they are absent): what
   * a caller knows may have changed since a plan it has recorded in full (ADR 59).
   */
  readonly only?: ReadonlySet<string>;
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

type Author = Pick<BodyOf<'transformation'>, 'agent' | 'intent'>;

function observedTransformation(
  object: string,
  hash: string,
  parents: readonly string[],
  author: Author,
  factory: EntryFactory,
): LedgerEntry {
  const revision = revisionId(hash, parents);
  return createEntry(
    'transformation',
    {
      // Nothing is known about what the outside editor (or git) read, so no inputs (and no edges).
      inputs: [],
      outputs: [{ object, revision, content_hash: hash, parents: [...parents] }],
      ...author,
      confidence: 'unknown',
    },
    factory,
    // Keyed by the revision alone: whoever observes it, and as whatever, records one fact.
    observationIdem(['transformation', object, revision]),
  );
}

const external = (summary: string, path: string): Author => ({
  agent: { type: 'external' },
  intent: { kind: OBSERVED_EXTERNAL, summary: `${summary}: ${path}` },
});

/** One entry per HEAD move; `evidence` keeps a later identical A→B move from deduping into this one. */
function navigationEntry(
  git: Extract<GitClassification, { kind: 'navigation' }>,
  factory: EntryFactory,
): LedgerEntry {
  const { op, from, to, ref, evidence } = git;
  return createEntry(
    'navigation',
    { git: { op, from, to, ref } },
    factory,
    observationIdem(['navigation', from, to, evidence ?? '']),
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
  if (options.git?.kind === 'navigation') entries.push(navigationEntry(options.git, factory));

  const only = options.only;
  const byId = new Map<string, Observed[]>();
  const carriers = files.flatMap((file) => {
    // Binary files and files without an id are not objects; only a capture assigns an id.
    const digest = digestOf(file);
    return digest === null || (only !== undefined && !only.has(digest.id)) ? [] : [{ file, digest }];
  });
  for (const { file, digest } of carriers.sort((a, b) =>
    a.file.path < b.file.path ? -1 : a.file.path > b.file.path ? 1 : 0,
  )) {
    const list = byId.get(digest.id) ?? [];
    list.push({ path: file.path, contentHash: digest.contentHash, schema: digest.schema });
    byId.set(digest.id, list);
  }

  for (const [object, seen] of [...byId].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const [only, ...others] = seen;
    if (only === undefined) continue;
    if (others.length > 0) {
      // Which copy is "the" object is a human decision; recording either would take it for them.
      held.push(object);
      const paths = seen.map((s) => s.path);
      const message = `id ${object} is carried by ${seen.length} files: ${paths.join(', ')}`;
      diagnostics.push({ code: 'duplicate-id', object, path: only.path, message });
      // Recorded for every reader of the workspace, once per set of paths (the idem says which).
      entries.push(
        createEntry(
          'diagnostic',
          { code: 'duplicate-id', object, paths, message },
          factory,
          observationIdem(['diagnostic', 'duplicate-id', object, ...paths]),
        ),
      );
      continue;
    }
    const entry = known.get(object);
    if (entry === undefined) {
      entries.push(...adopt(object, only, factory));
      continue;
    }
    if (entry.path !== only.path) moves.push({ object, from: entry.path, to: only.path });
    const planned = reconcileKnown(entry, only, factory, options.git);
    if ('diagnostic' in planned) diagnostics.push(planned.diagnostic);
    else entries.push(...planned.entries);
  }

  const skipped = new Set(coverage.skipped);
  const planned = only === undefined ? known.values() : [...only].flatMap((id) => known.get(id) ?? []);
  for (const entry of planned) {
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
  return [
    registration,
    observedTransformation(object, seen.contentHash, [], external('adopted', seen.path), factory),
  ];
}

type KnownOutcome = { readonly entries: LedgerEntry[] } | { readonly diagnostic: ScanDiagnostic };

function reconcileKnown(
  entry: KnownObject,
  seen: Observed,
  factory: EntryFactory,
  git: GitClassification | undefined,
): KnownOutcome {
  const { object } = entry;
  // Content equal to any head is a state the ledger already records (e.g. one side of a fork
  // checked out): nothing happened that needs a revision.
  if (entry.heads.some((h) => h.contentHash === seen.contentHash)) return { entries: [] };
  if (entry.heads.length === 0) {
    // Registered but never given a revision (e.g. an adoption interrupted between its two
    // appends): the file is the first content seen, so it is a root, as adoption records it.
    return {
      entries: [
        observedTransformation(object, seen.contentHash, [], external('adopted', seen.path), factory),
      ],
    };
  }
  // HEAD moved to an existing commit: the file holds what that commit holds. The navigation
  // entry records the move; a revision would claim an edit nobody made.
  if (git?.kind === 'navigation') return { entries: [] };
  // In a repository, an older recorded state is what a past checkout left behind (the scan
  // after it sees HEAD unchanged), not a fresh edit. A merge or revert that lands on an old
  // state is still git's new content, so it is recorded below.
  if (git !== undefined && git.kind !== 'mutation' && entry.contentHashes.has(seen.contentHash)) {
    return { entries: [] };
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
  const author: Author =
    git?.kind === 'mutation'
      ? {
          agent: { type: 'git' },
          intent: { kind: `${GIT_INTENT_PREFIX}${git.op}`, summary: `git ${git.op}: ${seen.path}` },
        }
      : external('external edit observed', seen.path);
  return { entries: [observedTransformation(object, seen.contentHash, [head.revision], author, factory)] };
}
