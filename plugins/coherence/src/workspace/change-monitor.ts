/**
 * Tells what in a workspace changed since a mark, so that an unchanged workspace is not walked
 * again and a changed one re-checks only the paths that changed (git's fsmonitor idea, ADR 59).
 * It watches the folder tree and keeps the paths of the events outside `.vmark/` and `.git/`;
 * anything it cannot vouch for path by path — no watch yet, a watch error, an event without a
 * name, a platform whose watch coalesces events, a burst that may have overflowed the kernel's
 * event queue, more paths than re-checking them is worth, no cookie folder, a cookie that does
 * not come back — counts as "everything changed", so the worst case is a walk.
 *
 * Events arrive some time after the change, so "no event yet" alone proves nothing. Before
 * answering, the monitor writes a cookie file into the ledger's folder and waits for its own
 * event (watchman's sync cookie): the kernel queues watch events in order, so once the cookie
 * is seen, every change made before the question has been seen too.
 */
import { readFileSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Disposable } from '@vmark/sdk';
import { watchTree, type TreeWatch } from './tree-watcher.js';

/** Events of the ledger's own folder and of git internals do not change documents. */
const IGNORED = /^(?:\.vmark|\.git)(?:\/|$)/;
/** What the walk never enters, so its changes need no watch either (the ledger's folder: only its cookies). */
const SKIP = new Set(['.git', 'node_modules']);
const SHALLOW = new Set(['.vmark']);
const COOKIE_PREFIX = '.vmark-sync-';
/** A cookie not seen by then means the watch cannot be vouched for: walk instead. */
const COOKIE_TIMEOUT_MS = 2000;
/** Beyond this many changed paths a whole walk costs little more than re-checking each. */
export const MAX_CHANGED_PATHS = 4096;

/**
 * Linux drops the events that do not fit its inotify queue, and Node never reports the
 * overflow. An overflow needs a full queue, and a full queue is read out in one turn of the
 * event loop: a turn that brings half as many events as the queue holds counts as an overflow.
 */
const BURST_LIMIT = Math.floor(queuedEventsLimit() / 2);

function queuedEventsLimit(): number {
  try {
    const limit = Number(readFileSync('/proc/sys/fs/inotify/max_queued_events', 'utf8').trim());
    return Number.isSafeInteger(limit) && limit > 0 ? limit : 16384;
  } catch {
    return 16384;
  }
}

/** What changed since the last mark: workspace-relative paths (`/`-separated), or everything. */
export type Changes = { readonly all: true } | { readonly all: false; readonly paths: ReadonlySet<string> };

const EVERYTHING: Changes = { all: true };

export class ChangeMonitor implements Disposable {
  #watcher: TreeWatch | undefined;
  #healthy = false;
  /** Paths changed since the last `take`; null once they cannot be told apart. */
  #changed: Set<string> | null = null;
  #burst = 0;
  #cookies = 0;
  /** Started by the last `mark`, whose walk places the folder watches; until `placed`. */
  #placing = false;
  readonly #waiting = new Map<string, () => void>();

  /** `cookieDir`: a folder inside the watched tree whose events are ignored (the `.vmark/`). */
  constructor(
    private readonly root: string,
    private readonly cookieDir: string,
  ) {}

  /**
   * Starts watching (if not yet) and forgets earlier changes: call it right before a whole
   * walk, so that a change made during the walk counts for the next question. With `walking`,
   * when this starts the watch, it answers the hook the walk calls with each folder before
   * listing it, so that the walk's listing places the folder watches (ADR 77); then call
   * `placed` once the walk is over. Without, the watch lists the tree itself.
   */
  mark(walking = false): ((relative: string) => void) | undefined {
    let placing: ((relative: string) => void) | undefined;
    if (this.#watcher === undefined) {
      this.#start(walking);
      const watcher = walking ? (this.#watcher as TreeWatch | undefined) : undefined;
      if (watcher !== undefined) {
        this.#placing = true;
        placing = (relative) => watcher.listing(relative);
      }
    }
    if (this.#healthy) this.#changed = new Set();
    return placing;
  }

  /**
   * The walk after a `mark` that started the watch is over: `complete` when it listed every
   * folder it enters (else the watch lists the tree itself to place the rest).
   */
  placed(complete: boolean): void {
    if (!this.#placing) return;
    this.#placing = false;
    this.#watcher?.listed(complete);
  }

  /**
   * What changed since the last `mark` or `take`, as far as can be vouched for, and forgets it
   * in the same step: a change seen after this counts for the next call. A caller that cannot
   * finish re-checking what it took calls `forget`.
   */
  async take(): Promise<Changes> {
    if (!this.#healthy || this.#changed === null) return EVERYTHING;
    const synced = await this.#sync();
    const changed = this.#changed;
    if (!synced || !this.#healthy || changed === null) return EVERYTHING;
    this.#changed = new Set();
    return { all: false, paths: changed };
  }

  /** Counts everything as changed until the next `mark`. */
  forget(): void {
    this.#changed = null;
    // A walk that failed part-way placed only some of the watches.
    this.placed(false);
  }

  dispose(): void {
    this.#watcher?.dispose();
    this.#watcher = undefined;
    this.#healthy = false;
    this.#changed = null;
    for (const resolve of this.#waiting.values()) resolve();
    this.#waiting.clear();
  }

  /**
   * Writes a cookie and waits for its event, then for the watches of folders reported so far
   * (a folder moved in is reported again once watched); false when the cookie could not be
   * written or never came.
   */
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
    await this.#watcher?.settled();
    return ok;
  }

  /** Every event counts towards a burst, the ignored ones too: they fill the same queue. */
  #counted(): void {
    if (this.#burst++ === 0) setImmediate(() => (this.#burst = 0));
    if (this.#burst >= BURST_LIMIT) this.#changed = null;
  }

  #changedAt(name: string | null): void {
    if (this.#changed === null) return;
    if (name === null || !this.#watcher?.precise) this.#changed = null;
    else if (this.#changed.add(name).size > MAX_CHANGED_PATHS) this.#changed = null;
  }

  #start(walking: boolean): void {
    try {
      this.#watcher = watchTree(
        this.root,
        { skip: SKIP, shallow: SHALLOW },
        (name) => {
          this.#counted();
          const cookie = name === null ? undefined : this.#waiting.get(path.posix.basename(name));
          if (cookie !== undefined) cookie();
          else if (name === null || !IGNORED.test(name)) this.#changedAt(name);
        },
        () => this.dispose(),
        { placedBy: walking ? 'caller' : 'watch' },
      );
      this.#healthy = true;
    } catch {
      // No watch (e.g. out of inotify watches): every question walks.
      this.#healthy = false;
    }
  }
}
