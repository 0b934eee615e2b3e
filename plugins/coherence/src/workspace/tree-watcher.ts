/**
 * Watches a folder tree for changes, reliably. Node 20's `fs.watch(…, {recursive: true})` on
 * Linux watches every file by its inode: once a file is replaced by a rename (what every
 * atomic save does, vmark's own included), the watch stays on the old inode and the file's
 * later changes are never reported. Watching each folder instead reports its entries by name,
 * whatever inode they have. All the folder watches share the process's one inotify instance,
 * so their events keep the order the kernel queued them in (the change monitor's sync cookie
 * relies on it). Elsewhere (macOS, Windows) the native recursive watch is used.
 *
 * A folder created or moved in is reported twice: when its event comes, and again once it and
 * its subfolders are watched. A change made inside it between the two has no event of its own;
 * the second report makes a reader that re-lists reported folders list it again (ADR 59).
 */
import { type Dirent, type FSWatcher, readdirSync, watch } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { Disposable } from '@vmark/sdk';

export interface TreeWatchOptions {
  /** Folders (by name, at any depth) whose contents are not watched: `.git`, `node_modules`. */
  readonly skip: ReadonlySet<string>;
  /** Folders (workspace-relative) watched themselves but not below: the ledger's `.vmark`. */
  readonly shallow: ReadonlySet<string>;
}

/** A change at `relative` (`/`-separated), or null when the platform did not say where. */
export type TreeListener = (relative: string | null) => void;

export interface TreeWatch extends Disposable {
  /**
   * Whether each event names the entry that changed in the folder it changed in, so that a
   * reader may re-check just the reported paths (Linux). The native recursive watches elsewhere
   * may coalesce events into a folder or drop names; there any event means "look at everything".
   */
  readonly precise: boolean;
  /** Resolves once every folder reported so far is watched (and reported again, see above). */
  settled(): Promise<void>;
  /**
   * Started with `placedBy: 'caller'`: the caller is about to list the folder at `relative`
   * ('' is the root), so it is watched now, before its listing (ADR 77).
   */
  listing(relative: string): void;
  /**
   * Started with `placedBy: 'caller'`: the caller's listing is over. When it did not list
   * every folder (cut short, failed), the watch lists the tree itself to place the rest.
   */
  listed(complete: boolean): void;
}

export interface TreeWatchStart {
  /**
   * Who lists the tree to place the folder watches: the watch itself, before `watchTree`
   * returns (the default), or the caller's own walk through `listing` and `listed`, so that a
   * new process lists its tree once, not twice (ADR 77).
   */
  readonly placedBy?: 'watch' | 'caller';
}

export function watchTree(
  root: string,
  options: TreeWatchOptions,
  onChange: TreeListener,
  onError: () => void,
  start: TreeWatchStart = {},
): TreeWatch {
  if (process.platform !== 'linux') {
    const watcher = watch(root, { recursive: true, persistent: false }, (_event, name) =>
      onChange(name === null ? null : name.split(path.sep).join('/')),
    );
    watcher.on('error', onError);
    return {
      precise: false,
      settled: () => Promise.resolve(),
      listing: () => undefined,
      listed: () => undefined,
      dispose: () => watcher.close(),
    };
  }
  return new FolderWatches(root, options, onChange, onError, start.placedBy ?? 'watch');
}

class FolderWatches implements TreeWatch {
  readonly precise = true;
  readonly #watchers = new Map<string, FSWatcher>();
  /** Folder watches being added for reported entries. */
  readonly #adding = new Set<Promise<void>>();
  #disposed = false;

  constructor(
    private readonly root: string,
    private readonly options: TreeWatchOptions,
    private readonly onChange: TreeListener,
    private readonly onError: () => void,
    placedBy: 'watch' | 'caller',
  ) {
    this.#watch('');
    if (placedBy === 'watch') {
      // Every folder there is now is watched before the call returns (one listing each, once):
      // a change made right after it, however deep, counts.
      this.#addBelowNow('');
    } else {
      // The caller's walk places the rest; it never lists the shallow folders (the ledger's).
      for (const folder of this.options.shallow) this.#watch(folder);
    }
  }

  listing(relative: string): void {
    if (relative === '' || this.#descends(relative)) this.#watch(relative);
  }

  listed(complete: boolean): void {
    if (!complete && !this.#disposed) this.#addBelowNow('');
  }

  dispose(): void {
    this.#disposed = true;
    for (const watcher of this.#watchers.values()) watcher.close();
    this.#watchers.clear();
  }

  /** Watches the folder at `relative` ('' is the root); throws only for the root. */
  #watch(relative: string): void {
    if (this.#disposed || this.#watchers.has(relative)) return;
    const folder = path.join(this.root, relative);
    let watcher: FSWatcher;
    try {
      watcher = watch(folder, { persistent: false }, (_event, name) => {
        const child = name === null ? null : relative === '' ? name : `${relative}/${name}`;
        this.onChange(child);
        // A new folder (created or moved in) gets a watch of its own, and its subfolders.
        if (child !== null && this.#descends(child)) this.#track(child);
      });
    } catch (error) {
      if (relative === '') throw error;
      return; // Gone already, or out of watches: the change that made it was reported.
    }
    watcher.on('error', () => {
      watcher.close();
      this.#watchers.delete(relative);
      // The root gone (or unwatchable) means nothing can be vouched for any more.
      if (relative === '') this.onError();
    });
    this.#watchers.set(relative, watcher);
  }

  async settled(): Promise<void> {
    while (this.#adding.size > 0) await Promise.all(this.#adding);
  }

  #track(child: string): void {
    const adding = this.#addBelowIfFolder(child).then((folder) => {
      if (folder && !this.#disposed) this.onChange(child);
    });
    this.#adding.add(adding);
    void adding.finally(() => this.#adding.delete(adding));
  }

  #descends(relative: string): boolean {
    const name = relative.slice(relative.lastIndexOf('/') + 1);
    const parent = relative.includes('/') ? relative.slice(0, relative.lastIndexOf('/')) : '';
    return !this.options.skip.has(name) && !this.options.shallow.has(parent);
  }

  /** Watches `relative` and below if it is a folder; whether it was. */
  async #addBelowIfFolder(relative: string): Promise<boolean> {
    const entries = await readdir(path.join(this.root, relative), { withFileTypes: true }).catch(() => null);
    if (entries === null) {
      // Not a folder (a file), or gone: a folder that went away loses its watch.
      this.#forget(relative);
      return false;
    }
    this.#watch(relative);
    await this.#addBelow(relative);
    return true;
  }

  #addBelowNow(relative: string): void {
    if (this.options.shallow.has(relative)) return;
    let entries: Dirent[];
    try {
      entries = readdirSync(path.join(this.root, relative), { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (!entry.isDirectory() || this.options.skip.has(entry.name)) continue;
      const child = relative === '' ? entry.name : `${relative}/${entry.name}`;
      this.#watch(child);
      this.#addBelowNow(child);
    }
  }

  async #addBelow(relative: string): Promise<void> {
    if (this.options.shallow.has(relative)) return;
    const entries = await readdir(path.join(this.root, relative), { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      if (this.#disposed) return;
      if (!entry.isDirectory() || this.options.skip.has(entry.name)) continue;
      const child = relative === '' ? entry.name : `${relative}/${entry.name}`;
      this.#watch(child);
      await this.#addBelow(child);
    }
  }

  #forget(relative: string): void {
    for (const [watched, watcher] of this.#watchers) {
      if (watched === relative || watched.startsWith(`${relative}/`)) {
        watcher.close();
        this.#watchers.delete(watched);
      }
    }
  }
}
