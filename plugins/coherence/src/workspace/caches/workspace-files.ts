import { WalkCache, walkWorkspace, type SavedWalkEntry, type WalkResult } from '../../kernel/scan/index.js';
import { ChangeMonitor } from '../change-monitor.js';
import { IndexProgress } from '../index-progress.js';

/** The workspace's Markdown files: the last walk while nothing in the workspace changed, else a new one. */
export class WorkspaceFiles {
  /** Lets a walk re-read only the files whose stat signature changed since the last one. */
  readonly #walkCache = new WalkCache();
  /** Lets a call skip the walk altogether when nothing in the workspace changed. */
  readonly #monitor: ChangeMonitor;
  #lastWalk: WalkResult | undefined;

  constructor(
    private readonly root: string,
    vmarkDir: string,
  ) {
    this.#monitor = new ChangeMonitor(root, vmarkDir);
  }

  async walk(indexing = new IndexProgress()): Promise<WalkResult> {
    if (this.#lastWalk !== undefined && (await this.#monitor.unchanged())) return this.#lastWalk;
    // Marked before walking: a change made during the walk is seen by the next call.
    this.#monitor.mark();
    this.#lastWalk = await walkWorkspace(this.root, {
      cache: this.#walkCache,
      onProgress: indexing.filesRead,
    });
    return this.#lastWalk;
  }

  /** The last walk, if any. */
  get last(): WalkResult | undefined {
    return this.#lastWalk;
  }

  /** The stat signatures and digests remembered, to keep in the on-disk index. */
  savedCache(): SavedWalkEntry[] {
    return this.#walkCache.saved(this.root);
  }

  /** Signatures read back from a sound index of this workspace (before any walk of this process). */
  restoreCache(entries: readonly SavedWalkEntry[]): void {
    if (this.#walkCache.size === 0) this.#walkCache.restore(this.root, entries);
  }

  dispose(): void {
    this.#monitor.dispose();
  }
}
