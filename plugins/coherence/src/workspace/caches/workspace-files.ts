import { WalkCache, walkWorkspace, type WalkResult } from '../../kernel/scan/index.js';
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

  dispose(): void {
    this.#monitor.dispose();
  }
}
