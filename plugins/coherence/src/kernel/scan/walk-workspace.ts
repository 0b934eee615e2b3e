/**
 * Lists and reads the Markdown files of a workspace for scan reconciliation (vmark-notes §7.6,
 * "Scan reconciliation"). Symlinks are never followed: a link could point out of the workspace
 * or make two paths carry one file (which would read as a duplicate id), so each one is
 * reported and skipped. The walk uses an explicit stack, so directory depth costs heap, not
 * call stack, and the number of files read is bounded.
 */
import { constants, readdirSync, statSync, type BigIntStats, type Dirent } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { digestFile, type FileDigest } from './file-digest.js';
import { SignatureSweep, signatureOf, type SweepThread } from './signature-sweep.js';
import { errorCode } from '@vmark/sdk';

/** Directory names never entered, at any depth: coherence state, git internals, dependencies. */
export const SKIPPED_DIRS: ReadonlySet<string> = new Set(['.vmark', '.git', 'node_modules']);

export const MARKDOWN_SUFFIX = '.md';

export type ScanDiagnosticCode =
  | 'symlink'
  | 'not-a-file'
  | 'unreadable'
  | 'invalid-utf8'
  | 'too-large'
  | 'too-many-files'
  | 'duplicate-id'
  | 'ambiguous-heads'
  | 'ledger-incomplete'
  | 'not-initialized';

export interface ScanDiagnostic {
  readonly code: ScanDiagnosticCode;
  /** Workspace-relative path with `/` separators; absent for workspace-wide findings. */
  readonly path?: string;
  /** Object concerned (lower-case UUID), when the finding is about one. */
  readonly object?: string;
  readonly message: string;
}

/**
 * A readable Markdown file: its bytes, or (from a walk with a `WalkCache`) its digest, or both.
 * Use `digestOf` (file-digest.ts) to get at the identity and content hash either way.
 */
export type WorkspaceFile =
  | {
      /** Workspace-relative path with `/` separators, the form `object-registered` records. */
      readonly path: string;
      /** The file's bytes, valid UTF-8 (files that are not are reported instead). */
      readonly bytes: Uint8Array;
      readonly digest?: FileDigest | null;
    }
  | {
      readonly path: string;
      /** Not read: unchanged since a walk that read it, whose digest stands in for the bytes. */
      readonly bytes?: undefined;
      /** Null when the file carries no identity. */
      readonly digest: FileDigest | null;
    };

export interface WalkResult {
  /** Readable Markdown files, sorted by path. */
  readonly files: WorkspaceFile[];
  /** Findings, sorted by path. */
  readonly diagnostics: ScanDiagnostic[];
  /**
   * Markdown paths that exist but could not be read as text (symlink, unreadable, invalid
   * UTF-8, too large). An object last seen at one of these is unverified, not absent.
   */
  readonly skipped: string[];
  /** Folders not entered although they may hold documents: unlistable ones and linked ones. */
  readonly skippedDirs: string[];
  /** False when the file bound cut the listing short: then no object can be called absent. */
  readonly complete: boolean;
}

export interface WalkOptions {
  /** Files read at most; beyond it the walk stops with a `too-many-files` diagnostic. */
  readonly maxFiles?: number;
  /** Larger files are reported (`too-large`) instead of read. */
  readonly maxFileBytes?: number;
  /** Files read concurrently. */
  readonly concurrency?: number;
  /**
   * Remembers each file's stat signature and digest between walks of the same root, so a
   * later walk lstat()s every file but reads only those whose signature changed; it yields
   * `digest` (and no `bytes`) for the others. Keep one per workspace for the process' life.
   */
  readonly cache?: WalkCache;
  /** Called as files are read (or found unchanged in the cache), once the listing knows how many. */
  readonly onProgress?: (done: number, total: number) => void;
  /**
   * Called with each folder (workspace-relative, '' for the root) right before it is listed:
   * the change monitor places its watch there, so that the walk's one listing of the tree also
   * places the watches, and a change made after a folder's listing is seen (ADR 77).
   */
  readonly onFolder?: (relative: string) => void;
  /**
   * Sweeps the signatures of a large walk beside the main thread (ADR 82). Keep one per
   * workspace for the process' life, as the cache.
   */
  readonly sweeper?: SweepThread;
  /**
   * The cache is consulted only once this settles: the caller restores it meanwhile (from the
   * on-disk index), while the walk lists the tree and sweeps the signatures.
   */
  readonly cacheReady?: PromiseLike<unknown>;
}

/**
 * A file changed this close (or closer) before the walk that read it started is read again
 * next time: a second change within the same timestamp tick would leave its signature as it
 * was (git's "racily clean" entries). Generous, to cover coarse file-system clocks.
 */
export const RACY_WINDOW_NS = 2_000_000_000n;

/** What the cache remembers of a file: the signature it was read with, and its digest then. */
export interface CachedFile {
  readonly signature: string;
  readonly digest: FileDigest | null;
}

/** Per-path stat signatures and digests of the files a walk read (see `WalkOptions.cache`). */
export class WalkCache {
  /** The root the entries belong to; another root starts the cache over. */
  private root: string | null = null;
  private readonly racyWindowNs: bigint;
  private files = new Map<string, CachedFile>();

  /** `racyWindowNs` defaults to `RACY_WINDOW_NS`; tests lower it. */
  constructor(options: { readonly racyWindowNs?: bigint } = {}) {
    this.racyWindowNs = options.racyWindowNs ?? RACY_WINDOW_NS;
  }

  /** Files remembered. */
  get size(): number {
    return this.files.size;
  }

  clear(): void {
    this.files = new Map();
  }

  /** What the cache holds for `path` under `root` (nothing when it holds another root's), to keep on disk. */
  saved(root: string, path: string): CachedFile | undefined {
    return this.root === root ? this.files.get(path) : undefined;
  }

  /**
   * Starts over for `root` with entries kept on disk (`signatures[i]` and `digests[i]` for
   * `paths[i]`; a null signature: not remembered); the caller has checked where they came from.
   */
  restore(
    root: string,
    paths: readonly string[],
    signatures: readonly (string | null)[],
    digests: readonly (FileDigest | null)[],
  ): void {
    this.clear();
    this.root = root;
    for (let i = 0; i < paths.length; i++) {
      const signature = signatures[i];
      if (signature === null || signature === undefined) continue;
      this.files.set(paths[i] as string, { signature, digest: digests[i] ?? null });
    }
  }

  /** @internal Binds the cache to `root`, clearing it when it held another. */
  useFor(root: string): void {
    if (this.root !== root) this.clear();
    this.root = root;
  }

  /** @internal The digest remembered for `path` if `signature` (`signatureOf`) is still its signature. */
  lookup(path: string, signature: string): FileDigest | null | undefined {
    const hit = this.files.get(path);
    return hit !== undefined && hit.signature === signature ? hit.digest : undefined;
  }

  /** @internal Remembers what was read, unless it changed too recently to be trusted later. */
  remember(path: string, info: BigIntStats, digest: FileDigest | null, walkStartNs: bigint): void {
    const changed = info.mtimeNs > info.ctimeNs ? info.mtimeNs : info.ctimeNs;
    if (changed >= walkStartNs - this.racyWindowNs) this.files.delete(path);
    else this.files.set(path, { signature: signatureOf(info), digest });
  }

  /** @internal Forgets `path` (gone, or no longer a readable file). */
  forget(path: string): void {
    this.files.delete(path);
  }

  /** @internal Forgets every path not in `keep`. */
  retain(keep: ReadonlySet<string>): void {
    for (const path of this.files.keys()) if (!keep.has(path)) this.files.delete(path);
  }
}

export const DEFAULT_MAX_FILES = 200_000;
export const DEFAULT_MAX_FILE_BYTES = 64 * 1024 * 1024;
const DEFAULT_CONCURRENCY = 16;

/** True for a path the walk would look at: a `.md` file outside every skipped directory. */
export function isWalkedMarkdownPath(path: string): boolean {
  const parts = path.split('/');
  const name = parts[parts.length - 1] ?? '';
  return isMarkdownName(name) && !parts.slice(0, -1).some((p) => SKIPPED_DIRS.has(p));
}

const isMarkdownName = (name: string): boolean =>
  name.endsWith(MARKDOWN_SUFFIX) && name.length > MARKDOWN_SUFFIX.length;

const compareStrings = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** The system error's code, or else its message: what a diagnostic says went wrong. */
const failureOf = (error: unknown): string =>
  errorCode(error) ?? (error instanceof Error ? error.message : 'error');

// `fatal` so invalid UTF-8 is detected rather than replaced; the BOM is content (canonical-text.ts).
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

// O_NOFOLLOW closes the gap between listing and opening: a file swapped for a link in between
// fails to open instead of being followed. Windows lacks the flag; there listing already
// excluded links. O_NONBLOCK keeps a FIFO named `*.md` from blocking the open.
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

type ReadOutcome =
  { readonly bytes: Uint8Array; readonly info: BigIntStats } | { readonly diagnostic: ScanDiagnostic };

async function readMarkdown(abs: string, rel: string, maxBytes: number): Promise<ReadOutcome> {
  let handle;
  try {
    handle = await open(abs, OPEN_FLAGS);
  } catch (error) {
    const code = failureOf(error);
    // ELOOP is how O_NOFOLLOW reports a link that appeared after the listing.
    if (code === 'ELOOP') {
      return { diagnostic: { code: 'symlink', path: rel, message: 'symbolic link not followed' } };
    }
    return { diagnostic: { code: 'unreadable', path: rel, message: `cannot open: ${code}` } };
  }
  try {
    const info = await handle.stat({ bigint: true });
    if (!info.isFile()) {
      return { diagnostic: { code: 'not-a-file', path: rel, message: 'not a regular file' } };
    }
    if (info.size > BigInt(maxBytes)) {
      return {
        diagnostic: { code: 'too-large', path: rel, message: `${info.size} bytes exceeds ${maxBytes}` },
      };
    }
    const bytes = await handle.readFile();
    try {
      utf8.decode(bytes);
    } catch {
      return { diagnostic: { code: 'invalid-utf8', path: rel, message: 'not valid UTF-8' } };
    }
    return { bytes, info };
  } catch (error) {
    return { diagnostic: { code: 'unreadable', path: rel, message: `cannot read: ${failureOf(error)}` } };
  } finally {
    await handle.close();
  }
}

/**
 * Whether a link points at a folder; the target is only stat'ed, never entered. Synchronous,
 * as the listing around it (see `listFolders`).
 */
function linksToDirectory(abs: string): boolean {
  try {
    return statSync(abs, { throwIfNoEntry: false })?.isDirectory() ?? false;
  } catch {
    // Inaccessible: nothing behind it that the walk could have read anyway.
    return false;
  }
}

/** Folders listed between two turns of the event loop. */
const LISTING_BATCH = 64;

/** What listing folders found: files to read, and what could not be listed or read as text. */
export interface Listing {
  readonly candidates: string[];
  readonly diagnostics: ScanDiagnostic[];
  readonly skipped: string[];
  readonly skippedDirs: string[];
  /** Set when `maxFiles` cut the listing short. */
  truncated: boolean;
}

export const emptyListing = (): Listing => ({
  candidates: [],
  diagnostics: [],
  skipped: [],
  skippedDirs: [],
  truncated: false,
});

/**
 * One entry found at `rel` (by a folder's listing, or by `lstat` of a changed path), sorted into
 * `listing`; a folder to enter is returned. `isSymbolicLink`, `isDirectory`, `isFile` are lstat
 * semantics, so a link reports as a link, never as its target.
 * @internal shared by the walk and the re-walk of changed paths (walk-changes.ts).
 */
export function classifyEntry(
  root: string,
  rel: string,
  entry: Pick<Dirent, 'isSymbolicLink' | 'isDirectory' | 'isFile'>,
  listing: Listing,
  maxFiles: number,
): string | undefined {
  const name = rel.slice(rel.lastIndexOf('/') + 1);
  if (entry.isSymbolicLink()) {
    // Only links a reader would care about are reported: Markdown names and folders.
    if (isMarkdownName(name)) {
      listing.diagnostics.push({ code: 'symlink', path: rel, message: 'symbolic link not followed' });
      listing.skipped.push(rel);
    } else if (!SKIPPED_DIRS.has(name) && linksToDirectory(join(root, ...rel.split('/')))) {
      listing.diagnostics.push({
        code: 'symlink',
        path: rel,
        message: 'symbolic link to a folder not followed',
      });
      listing.skippedDirs.push(rel);
    }
  } else if (entry.isDirectory()) {
    if (!SKIPPED_DIRS.has(name)) return rel;
  } else if (isMarkdownName(name)) {
    if (!entry.isFile()) {
      listing.diagnostics.push({ code: 'not-a-file', path: rel, message: 'not a regular file' });
      listing.skipped.push(rel);
    } else if (listing.candidates.length >= maxFiles) {
      listing.truncated = true;
    } else {
      listing.candidates.push(rel);
    }
  }
  return undefined;
}

/**
 * Lists the folders in `stack` (workspace-relative; '' is the root, which must be listable)
 * and every folder below them into `listing`; `onFolder` hears each folder before its listing.
 * @internal shared by the walk and the re-walk of changed paths.
 */
export async function listFolders(
  root: string,
  stack: string[],
  listing: Listing,
  maxFiles: number,
  onFolder?: (relative: string) => void,
  sweep?: SignatureSweep,
): Promise<void> {
  let listed = 0;
  while (stack.length > 0 && !listing.truncated) {
    const dirRel = stack.pop() ?? '';
    const dirAbs = dirRel === '' ? root : join(root, ...dirRel.split('/'));
    // Synchronous, as the signature sweep below and for the same reason: through the thread
    // pool each listing costs several times the call (20,000 files in 530 folders).
    if (++listed % LISTING_BATCH === 0) {
      sweep?.offer(listing.candidates);
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    onFolder?.(dirRel);
    let entries;
    try {
      entries = readdirSync(dirAbs, { withFileTypes: true });
    } catch (error) {
      // The root itself must be listable; below it a vanished or locked folder is a finding.
      if (dirRel === '') throw error;
      listing.diagnostics.push({
        code: 'unreadable',
        path: dirRel,
        message: `cannot list folder: ${failureOf(error)}`,
      });
      listing.skippedDirs.push(dirRel);
      continue;
    }
    const prefix = dirRel === '' ? '' : `${dirRel}/`;
    for (const entry of entries) {
      const name = entry.name;
      // The common case, a Markdown file below the bound, without a call: what `classifyEntry` does.
      if (entry.isFile() && isMarkdownName(name) && listing.candidates.length < maxFiles) {
        listing.candidates.push(prefix + name);
        continue;
      }
      const folder = classifyEntry(root, prefix + name, entry, listing, maxFiles);
      if (folder !== undefined) stack.push(folder);
      if (listing.truncated) break;
    }
  }
}

/** What reading listed candidates gave: the readable files, and findings about the others. */
export interface ReadOut {
  readonly files: WorkspaceFile[];
  readonly diagnostics: ScanDiagnostic[];
  readonly skipped: string[];
}

/**
 * The signature sweep of a walk through `options.cache`, to be offered the listing as it grows;
 * none without a cache, or with an empty one that nothing will restore (every file is read).
 * @internal shared by the walk and the re-walk of changed paths.
 */
export function sweepFor(root: string, options: WalkOptions): SignatureSweep | undefined {
  const { cache, cacheReady } = options;
  if (cache === undefined || (cache.size === 0 && cacheReady === undefined)) return undefined;
  const maxBytes = BigInt(options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES);
  return new SignatureSweep(root, maxBytes, options.maxFiles ?? DEFAULT_MAX_FILES, options.sweeper);
}

/**
 * Reads the `candidates` (through `cache`, when given: only files whose signature changed are
 * read, the signatures coming from `sweep`); `walkStartNs` is when the walk began, for the
 * cache's racy rule.
 * @internal shared by the walk and the re-walk of changed paths.
 */
export async function readCandidates(
  root: string,
  candidates: readonly string[],
  options: WalkOptions,
  walkStartNs: bigint,
  sweep: SignatureSweep | undefined = sweepFor(root, options),
): Promise<ReadOut> {
  const cache = options.cache;
  const maxFileBytes = options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  const concurrency = Math.max(1, options.concurrency ?? DEFAULT_CONCURRENCY);
  const out: ReadOut = { files: [], diagnostics: [], skipped: [] };
  let done = 0;
  const progressed = () => options.onProgress?.(++done, candidates.length);
  let toRead: readonly string[] = candidates;
  if (cache !== undefined && sweep !== undefined) {
    // Unchanged files first, by their signatures; only the rest is read.
    const signatures = await sweep.finish(candidates);
    await options.cacheReady;
    const changed: string[] = [];
    for (let i = 0; i < candidates.length; i++) {
      const rel = candidates[i] as string;
      const signature = signatures[i] ?? null;
      const digest = signature === null ? undefined : cache.lookup(rel, signature);
      if (digest === undefined) {
        changed.push(rel);
      } else {
        out.files.push({ path: rel, digest });
        progressed();
      }
    }
    toRead = changed;
  }
  // A small worker pool: reading 20,000 files one at a time is slow, all at once exhausts fds.
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let i = next++; i < toRead.length; i = next++) {
      const rel = toRead[i];
      if (rel === undefined) break;
      const abs = join(root, ...rel.split('/'));
      const outcome = await readMarkdown(abs, rel, maxFileBytes);
      if ('bytes' in outcome) {
        if (cache === undefined) {
          out.files.push({ path: rel, bytes: outcome.bytes });
        } else {
          const digest = digestFile(outcome.bytes);
          cache.remember(rel, outcome.info, digest, walkStartNs);
          out.files.push({ path: rel, bytes: outcome.bytes, digest });
        }
      } else {
        out.diagnostics.push(outcome.diagnostic);
        out.skipped.push(rel);
      }
      progressed();
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, toRead.length) }, worker));
  return out;
}

/** Wall clock, the clock file times come from. @internal */
export const wallClockNs = (): bigint => BigInt(Date.now()) * 1_000_000n;

/** Puts a walk's parts in the order every walk returns them. @internal */
export function walkResult(
  files: WorkspaceFile[],
  diagnostics: ScanDiagnostic[],
  skipped: string[],
  skippedDirs: string[],
  complete: boolean,
): WalkResult {
  files.sort((a, b) => compareStrings(a.path, b.path));
  diagnostics.sort((a, b) => compareStrings(a.path ?? '', b.path ?? '') || compareStrings(a.code, b.code));
  skipped.sort(compareStrings);
  skippedDirs.sort(compareStrings);
  return { files, diagnostics, skipped, skippedDirs, complete };
}

export async function walkWorkspace(root: string, options: WalkOptions = {}): Promise<WalkResult> {
  const cache = options.cache;
  const walkStartNs = wallClockNs();
  cache?.useFor(root);
  const maxFiles = options.maxFiles ?? DEFAULT_MAX_FILES;
  const listing = emptyListing();
  const sweep = sweepFor(root, options);
  await listFolders(root, [''], listing, maxFiles, options.onFolder, sweep);
  if (listing.truncated) {
    listing.diagnostics.push({
      code: 'too-many-files',
      message: `more than ${maxFiles} Markdown files; the scan stopped listing`,
    });
  }
  const read = await readCandidates(root, listing.candidates, options, walkStartNs, sweep);
  // Only what this walk read or confirmed stays: deleted, unreadable and unlisted paths go.
  cache?.retain(new Set(read.files.map((f) => f.path)));
  return walkResult(
    read.files,
    [...listing.diagnostics, ...read.diagnostics],
    [...listing.skipped, ...read.skipped],
    listing.skippedDirs,
    !listing.truncated,
  );
}
