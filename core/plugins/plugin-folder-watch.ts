import { type FSWatcher, watch } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { Disposable } from '@vmark/sdk';
import { type PluginRoot, subfolders } from './discovery.js';

/** A plugin is copied in file by file, or an npm install writes many: discovered again once that settles. */
const SETTLE_MS = 100;

/**
 * The folders user and npm plugins are found in, followed while the host runs,
 * so that a plugin added, fixed or removed there reaches the running host:
 * each root, each plugin folder of a user root (its manifest.json and code are
 * written there), and the folder that holds a root, for a root made later.
 * Every change is told once a burst has settled; `sync` again after each
 * discovery, as folders come and go. Bounded by the plugin folders themselves.
 */
export class PluginFolderWatch implements Disposable {
  /** Each watched folder, with the inode it had: a folder removed and made again is watched anew. */
  readonly #watchers = new Map<string, { readonly watcher: FSWatcher; readonly ino: number }>();
  #timer: NodeJS.Timeout | undefined;
  #disposed = false;
  #synced = false;

  constructor(
    private readonly roots: readonly PluginRoot[],
    private readonly changed: () => void,
  ) {}

  /**
   * Watches the folders there are now, and stops watching those that went. A folder that
   * is new since the last sync may have changed before its watch began (a manifest written
   * just after the folder was made): that counts as a change, so nothing is missed.
   */
  async sync(): Promise<void> {
    const first = this.#synced === false;
    this.#synced = true;
    // Folder → the names in it that matter (null: every name).
    const wanted = new Map<string, Set<string> | null>();
    for (const root of this.roots) {
      const parent = path.dirname(root.dir);
      const names = wanted.get(parent);
      if (names !== null) wanted.set(parent, new Set([...(names ?? []), path.basename(root.dir)]));
      wanted.set(root.dir, null);
      if (root.source === 'user') for (const dir of await subfolders(root.dir)) wanted.set(dir, null);
    }
    const inodes = new Map<string, number | undefined>();
    for (const dir of wanted.keys()) inodes.set(dir, (await stat(dir).catch(() => undefined))?.ino);
    if (this.#disposed) return;
    for (const [dir, watched] of this.#watchers) {
      if (wanted.has(dir) && inodes.get(dir) === watched.ino) continue;
      watched.watcher.close();
      this.#watchers.delete(dir);
    }
    for (const [dir, names] of wanted) {
      const ino = inodes.get(dir);
      // Not there (yet): its parent's watch tells when it is made.
      if (this.#watchers.has(dir) || ino === undefined) continue;
      try {
        const watcher = watch(dir, { persistent: false }, (_event, name) => {
          if (names === null || name === null || names.has(name)) this.#schedule();
        });
        watcher.on('error', () => undefined);
        this.#watchers.set(dir, { watcher, ino });
        if (!first) this.#schedule();
      } catch {
        // Gone meanwhile, or out of inotify watches: the next change elsewhere syncs again.
      }
    }
  }

  dispose(): void {
    this.#disposed = true;
    clearTimeout(this.#timer);
    for (const { watcher } of this.#watchers.values()) watcher.close();
    this.#watchers.clear();
  }

  #schedule(): void {
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      if (!this.#disposed) this.changed();
    }, SETTLE_MS);
  }
}
