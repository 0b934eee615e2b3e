/**
 * The derived, rebuildable on-disk index (ADR 46): what lets a new process answer its first
 * `coherence.edges` without reading the whole ledger or hashing every document. It keeps the
 * last answer with everything it rests on — where each ledger segment stood, every walked
 * file's digest (and the stat signatures that let a walk skip reading unchanged files), the git
 * state, the context, the scan's memory of moves and HEAD — and a new process believes the
 * answer only while all of that is still so. The ledger stays the truth: a damaged, foreign,
 * outdated or newer-than-the-ledger index is never believed, only rebuilt.
 */
import { stat } from 'node:fs/promises';
import type { ResolvedContext } from '../../kernel/projection/index.js';
import { readGitState, digestOf, type FileDigest, type WalkResult } from '../../kernel/scan/index.js';
import { segmentsMatch, type SegmentMark } from '../../kernel/ledger/index.js';
import { contextKey } from '../caches/ledger-state.js';
import type { WorkspaceFiles } from '../caches/workspace-files.js';
import type { McpEdgeRow } from '../edge-rows.js';
import type { IndexProgress } from '../index-progress.js';
import type { ScanReconciler } from '../scan-reconciler.js';
import { defaultContext } from '../workspace-contexts.js';
import type { WorkspaceLedger } from '../workspace-ledger.js';
import { readIndexFile, writeIndexFile } from './index-file.js';
import {
  encodeIndexPayload,
  parseIndexPayload,
  type IndexedFiles,
  type IndexPayload,
} from './index-payload.js';

/**
 * The index is written once questions have paused this long: writing it (some 8 MB for 20,000
 * documents) must not land in the middle of the next question. A process asked without pause
 * still writes once the first answer waiting is this old.
 */
const WRITE_WHEN_IDLE_MS = 1000;
const WRITE_AT_LATEST_MS = 30_000;

/** An answer made in this process, and what it rests on, waiting to be written. */
interface Remembered {
  readonly walk: WalkResult;
  readonly segments: readonly SegmentMark[];
  readonly git: string;
  readonly lastHead: string | null;
  readonly observedPaths: readonly (readonly [string, string])[];
  readonly context: string;
  readonly until: number;
  readonly edges: readonly McpEdgeRow[];
}

export class WorkspaceIndex {
  /** The index read at this process' first question: undefined before it, null once not believed. */
  #believed: IndexPayload | null | undefined;
  /** The walk last found to match the index's (a walk the change monitor vouches for is the same object). */
  #matchedWalk: WalkResult | undefined;
  #remembered: Remembered | undefined;
  #timer: NodeJS.Timeout | undefined;
  /** When the oldest answer not yet written was remembered (epoch ms). */
  #waitingSince: number | undefined;
  #writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly ledger: WorkspaceLedger,
    private readonly files: WorkspaceFiles,
    private readonly scan: ScanReconciler,
    private readonly now: () => Date,
  ) {}

  /**
   * The index's answer when everything it rests on is still as it was, else null (and the
   * index is not consulted again by this process: what it derives in memory serves from then on).
   */
  async answer(indexing: IndexProgress): Promise<McpEdgeRow[] | null> {
    this.postpone();
    let walked: WalkResult | undefined;
    if (this.#believed === undefined) {
      // The walk lists the tree and sweeps the signatures while the index is read; it consults
      // the signatures the index restores once that is done (ADR 82).
      const loading = this.#load();
      const walking = this.files.walk(
        indexing,
        loading.catch(() => null),
      );
      const [loaded, walk] = await Promise.allSettled([loading, walking]);
      if (loaded.status === 'rejected') throw loaded.reason;
      if (walk.status === 'rejected') throw walk.reason;
      this.#believed = loaded.value;
      walked = walk.value;
    }
    const index = this.#believed;
    if (index === null) return null;
    if (await this.#stands(index, walked ?? (await this.files.walk(indexing)))) return index.edges.slice();
    this.#believed = null;
    return null;
  }

  /** Keeps an answer made from the ledger, to be written shortly (and by `flush`). */
  remember(edges: readonly McpEdgeRow[], context: ResolvedContext, until: number): void {
    const walk = this.files.last;
    if (walk === undefined) return;
    this.#believed = null;
    this.#remembered = {
      walk,
      segments: this.ledger.marks(),
      ...this.scan.memory(),
      context: contextKey(context),
      until,
      edges,
    };
    this.#waitingSince ??= Date.now();
    this.#schedule();
  }

  /** A question is being asked: a write waiting for a pause waits on (up to its latest). */
  postpone(): void {
    if (this.#timer !== undefined) this.#schedule();
  }

  #schedule(): void {
    clearTimeout(this.#timer);
    const latest = (this.#waitingSince ?? Date.now()) + WRITE_AT_LATEST_MS - Date.now();
    this.#timer = setTimeout(
      () => void this.flush(),
      Math.max(0, Math.min(WRITE_WHEN_IDLE_MS, latest)),
    ).unref();
  }

  /** Writes the answer remembered last, if any; never fails (an index that is not written is rebuilt later). */
  flush(): Promise<void> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#waitingSince = undefined;
    const remembered = this.#remembered;
    this.#remembered = undefined;
    if (remembered === undefined) return this.#writing;
    this.#writing = this.#writing.then(async () => {
      try {
        await writeIndexFile(this.ledger.vmarkDir, encodeIndexPayload(await this.#payload(remembered)));
      } catch {
        // A read-only or full disk: the next process reads the ledger instead.
      }
    });
    return this.#writing;
  }

  async #payload(r: Remembered): Promise<IndexPayload> {
    const root = await stat(this.ledger.root, { bigint: true });
    return {
      workspace: { root: this.ledger.root, dev: String(root.dev), ino: String(root.ino) },
      segments: r.segments,
      files: this.#indexedFiles(r.walk),
      coverage: coverageOf(r.walk),
      git: r.git,
      lastHead: r.lastHead,
      observedPaths: r.observedPaths,
      context: r.context,
      until: Number.isFinite(r.until) ? r.until : null,
      edges: r.edges,
    };
  }

  /**
   * The walk's files with their digests, and beside each the walk cache's signature as it is
   * now when it vouches for that very digest (a signature of later bytes with another digest is
   * left out: that file is read again, and the answer not believed).
   */
  #indexedFiles(walk: WalkResult): IndexedFiles {
    const paths: string[] = [];
    const digests: (FileDigest | null)[] = [];
    const signatures: (string | null)[] = [];
    for (const file of walk.files) {
      const digest = digestOf(file);
      const cached = this.files.cached(file.path);
      paths.push(file.path);
      digests.push(digest);
      signatures.push(cached !== undefined && sameDigest(cached.digest, digest) ? cached.signature : null);
    }
    return { paths, digests, signatures };
  }

  /** The index on disk, if it is sound and this workspace's; restores what it knows that is safe to. */
  async #load(): Promise<IndexPayload | null> {
    const index = parseIndexPayload(await readIndexFile(this.ledger.vmarkDir));
    if (index === null) return null;
    // An index copied with `.vmark/` into another folder, or left by a folder since replaced.
    const root = await stat(this.ledger.root, { bigint: true });
    const { workspace } = index;
    if (
      workspace.root !== this.ledger.root ||
      workspace.dev !== String(root.dev) ||
      workspace.ino !== String(root.ino)
    )
      return null;
    // Signatures vouch for file contents whatever the ledger says, so a walk may use them now.
    const { paths, signatures, digests } = index.files;
    this.files.restoreCache(paths, signatures, digests);
    // The answer and the scan's memory only hold for the very ledger they were made from.
    if (!(await segmentsMatch(this.ledger.vmarkDir, index.segments))) return null;
    this.scan.restore(index);
    return index;
  }

  async #stands(index: IndexPayload, walk: WalkResult): Promise<boolean> {
    if (walk !== this.#matchedWalk) {
      if (!sameWalk(index, walk)) return false;
      this.#matchedWalk = walk;
    }
    if (index.until !== null && this.now().getTime() >= index.until) return false;
    if (!(await segmentsMatch(this.ledger.vmarkDir, index.segments))) return false;
    if (JSON.stringify(await readGitState(this.ledger.root)) !== index.git) return false;
    return contextKey(await defaultContext(this.ledger.vmarkDir)) === index.context;
  }
}

function sameDigest(a: FileDigest | null, b: FileDigest | null): boolean {
  if (a === b) return true;
  if (a === null || b === null) return false;
  return a.id === b.id && a.schema === b.schema && a.contentHash === b.contentHash;
}

/** What a reconciliation takes from a walk besides the files: what it could not see. */
function coverageOf(walk: WalkResult): string {
  const { diagnostics, skipped, skippedDirs, complete } = walk;
  return JSON.stringify({ diagnostics, skipped, skippedDirs, complete });
}

/** Whether `walk` found the very files, with the very digests, that the index's answer rests on. */
function sameWalk(index: IndexPayload, walk: WalkResult): boolean {
  const { paths, digests } = index.files;
  if (paths.length !== walk.files.length || coverageOf(walk) !== index.coverage) return false;
  // A file found unchanged by its signature carries the very digest object read from the index.
  return walk.files.every(
    (file, i) => file.path === paths[i] && sameDigest(digestOf(file), digests[i] ?? null),
  );
}
