/**
 * Tells whether anything in a workspace changed since a mark, so that an unchanged workspace
 * is not walked again (git's fsmonitor idea). It watches the folder tree and, on any event
 * outside `.vmark/` and `.git/`, sets a dirty flag; anything it cannot vouch for — no watch
 * yet, a watch error, no cookie folder, a cookie that does not come back — counts as changed,
 * so the worst case is a walk.
 *
 * Events arrive some time after the change, so "no event yet" alone proves nothing. Before
 * answering, the monitor writes a cookie file into the ledger's folder and waits for its own
 * event (watchman's sync cookie): the kernel queues watch events in order, so once the cookie
 * is seen, every change made before the question has been seen too.
 */
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Disposable } from '@vmark/sdk';
import { watchTree } from './tree-watcher.js';

/** Events of the ledger's own folder and of git internals do not change documents. */
const IGNORED = /^(?:\.vmark|\.git)(?:\/|$)/;
/** What the walk never enters, so its changes need no watch either (the ledger's folder: only its cookies). */
const SKIP = new Set(['.git', 'node_modules']);
const SHALLOW = new Set(['.vmark']);
const COOKIE_PREFIX = '.vmark-sync-';
/** A cookie not seen by then means the watch cannot be vouched for: walk instead. */
const COOKIE_TIMEOUT_MS = 2000;

export class ChangeMonitor implements Disposable {
  #watcher: Disposable | undefined;
  #healthy = false;
  #dirty = true;
  #cookies = 0;
  readonly #waiting = new Map<string, () => void>();

  /** `cookieDir`: a folder inside the watched tree whose events are ignored (the `.vmark/`). */
  constructor(
    private readonly root: string,
    private readonly cookieDir: string,
  ) {}

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
    if (!this.#healthy || this.#dirty) return false;
    return (await this.#sync()) && this.#healthy && !this.#dirty;
  }

  dispose(): void {
    this.#watcher?.dispose();
    this.#watcher = undefined;
    this.#healthy = false;
    this.#dirty = true;
    for (const resolve of this.#waiting.values()) resolve();
    this.#waiting.clear();
  }

  /** Writes a cookie and waits for its event; false when it could not be written or never came. */
  async #sync(): Promise<boolean> {
    const name = `${COOKIE_PREFIX}${process.pid}-${++this.#cookies}`;
    const file = path.join(this.cookieDir, name);
    let timer: NodeJS.Timeout | undefined;
    const seen = new Promise<boolean>((resolve) => {
      this.#waiting.set(name, () => resolve(true));
      timer = setTimeout(() => resolve(false), COOKIE_TIMEOUT_MS);
    });
    try {
      await writeFile(file, '');
    } catch {
      // No ledger folder yet (or not writable): nothing to sync with.
      this.#waiting.delete(name);
      clearTimeout(timer);
      return false;
    }
    const ok = await seen;
    clearTimeout(timer);
    this.#waiting.delete(name);
    await rm(file, { force: true });
    return ok;
  }

  #start(): void {
    try {
      this.#watcher = watchTree(
        this.root,
        { skip: SKIP, shallow: SHALLOW },
        (name) => {
          const cookie = name === null ? undefined : this.#waiting.get(path.posix.basename(name));
          if (cookie !== undefined) cookie();
          else if (name === null || !IGNORED.test(name)) this.#dirty = true;
        },
        () => this.dispose(),
      );
      this.#healthy = true;
    } catch {
      // No watch (e.g. out of inotify watches): every question walks.
      this.#healthy = false;
    }
  }
}
