/**
 * Tells whether anything in a workspace changed since a mark, so that an unchanged workspace
 * is not walked again (git's fsmonitor idea). It watches the folder tree and, on any event
 * outside `.vmark/` and `.git/`, sets a dirty flag; anything it cannot vouch for — no watch
 * yet, a watch error, an overflow — counts as changed, so the worst case is a walk.
 */
import { watch, type FSWatcher } from 'node:fs';
import type { Disposable } from '@vmark/sdk';

/** Events of the ledger's own folder and of git internals do not change documents. */
const IGNORED = /^(?:\.vmark|\.git)(?:[\\/]|$)/;

export class ChangeMonitor implements Disposable {
  #watcher: FSWatcher | undefined;
  #healthy = false;
  #dirty = true;

  constructor(private readonly root: string) {}

  /**
   * Starts watching (if not yet) and forgets earlier changes: call it right before a walk,
   * so that a change made during the walk counts for the next question.
   */
  mark(): void {
    if (this.#watcher === undefined) this.#start();
    this.#dirty = false;
  }

  /** Whether the workspace is as it was at the last `mark`, as far as can be vouched for. */
  async unchanged(): Promise<boolean> {
    // A change made before this question was asked has its event queued in the kernel
    // already; one turn of the event loop lets it be read before answering.
    await new Promise((resolve) => setImmediate(resolve));
    return this.#healthy && !this.#dirty;
  }

  dispose(): void {
    this.#watcher?.close();
    this.#watcher = undefined;
    this.#healthy = false;
    this.#dirty = true;
  }

  #start(): void {
    try {
      this.#watcher = watch(this.root, { recursive: true, persistent: false }, (_event, name) => {
        if (name === null || !IGNORED.test(name)) this.#dirty = true;
      });
      this.#watcher.on('error', () => this.dispose());
      this.#healthy = true;
    } catch {
      // No watch (e.g. out of inotify watches): every question walks.
      this.#healthy = false;
    }
  }
}
