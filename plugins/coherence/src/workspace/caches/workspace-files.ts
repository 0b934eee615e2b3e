import { lstat } from 'node:fs/promises';
import {
  SweepThread,
  WalkCache,
  walkChanges,
  walkWorkspace,
  type CachedFile,
  type FileDigest,
  type WalkResult,
} from '../../kernel/scan/index.js';
import { ChangeMonitor } from '../change-monitor.js';
import { IndexProgress } from '../index-progress.js';

/**
 * However well the watch vouches for what changed, a whole walk at least this often: a change
 * no event reports (a write through a shared mapping, a file system the watch does not see
 * into) is caught within this time, never kept for the process' life (ADR 59).
 */
const WHOLE_WALK_EVERY_MS = 5 * 60_000;

/**
 * The workspace's Markdown files: the last walk while nothing in the workspace changed, that
 * walk re-checked at the changed paths when the change monitor can say which, else a new one.
 */
export class WorkspaceFiles {
  /** Lets a walk re-read only the files whose stat signature changed since the last one. */
  readonly #walkCache = new WalkCache();
  /** Sweeps the signatures of a large walk beside the main thread (ADR 82). */
  readonly #sweeper: SweepThread;
  /** Says what changed since the last walk, so that only that is looked at again. */
  readonly #monitor: ChangeMonitor;
  #lastWalk: WalkResult | undefined;
  /** The last whole walk: when it started (epoch ms), and the root folder it listed. */
  #whole: { readonly at: number; readonly root: string } | undefined;
  #walks = { whole: 0, changes: 0 };

  constructor(
    private readonly root: string,
    vmarkDir: string,
    sweeper = new SweepThread(),
  ) {
    this.#monitor = new ChangeMonitor(root, vmarkDir);
    this.#sweeper = sweeper;
  }

  /**
   * `cacheReady`: the walk lists the tree and sweeps the signatures meanwhile, and consults what
   * it remembers of the files only once this settles (the caller restores it from the index).
   */
  async walk(indexing = new IndexProgress(), cacheReady?: PromiseLike<unknown>): Promise<WalkResult> {
    const last = this.#lastWalk;
    const whole = this.#whole;
    const changes = last === undefined || whole === undefined ? undefined : await this.#monitor.take();
    if (last !== undefined && whole !== undefined && changes?.all === false) {
      if (changes.paths.size === 0) return last;
      try {
        const rewalked =
          Date.now() - whole.at < WHOLE_WALK_EVERY_MS && (await this.#rootIdentity()) === whole.root
            ? await walkChanges(this.root, last, changes.paths, {
                cache: this.#walkCache,
                sweeper: this.#sweeper,
                onProgress: indexing.filesRead,
              })
            : null;
        if (rewalked !== null) {
          this.#walks.changes += 1;
          return (this.#lastWalk = rewalked);
        }
      } catch (error) {
        // What was taken is not re-checked: only a whole walk can say now.
        this.#monitor.forget();
        throw error;
      }
    }
    // Marked before walking: a change made during the walk is seen by the next call.
    const onFolder = this.#monitor.mark(true);
    const at = Date.now();
    const root = await this.#rootIdentity();
    try {
      this.#lastWalk = await walkWorkspace(this.root, {
        cache: this.#walkCache,
        sweeper: this.#sweeper,
        onProgress: indexing.filesRead,
        ...(onFolder === undefined ? {} : { onFolder }),
        ...(cacheReady === undefined ? {} : { cacheReady }),
      });
    } catch (error) {
      this.#monitor.forget();
      throw error;
    }
    this.#monitor.placed(this.#lastWalk.complete);
    this.#whole = { at, root };
    this.#walks.whole += 1;
    return this.#lastWalk;
  }

  /** The last walk, if any. */
  get last(): WalkResult | undefined {
    return this.#lastWalk;
  }

  /** How many walks were whole and how many re-checked changed paths only (for tests and the bench). */
  get walks(): { readonly whole: number; readonly changes: number } {
    return { ...this.#walks };
  }

  /** The stat signature and digest remembered for `path`, to keep in the on-disk index. */
  cached(path: string): CachedFile | undefined {
    return this.#walkCache.saved(this.root, path);
  }

  /** Signatures read back from a sound index of this workspace (before any walk of this process). */
  restoreCache(
    paths: readonly string[],
    signatures: readonly (string | null)[],
    digests: readonly (FileDigest | null)[],
  ): void {
    if (this.#walkCache.size === 0) this.#walkCache.restore(this.root, paths, signatures, digests);
  }

  dispose(): void {
    this.#monitor.dispose();
    this.#sweeper.dispose();
  }

  /** The root folder as a device and inode: another folder put in its place is walked whole. */
  async #rootIdentity(): Promise<string> {
    const info = await lstat(this.root, { bigint: true }).catch(() => null);
    return info === null ? '' : `${info.dev}:${info.ino}`;
  }
}
