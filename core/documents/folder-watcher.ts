import { type FSWatcher, watch } from 'node:fs';
import path from 'node:path';
import type { Disposable } from '@vmark/sdk';
import { injectable } from 'inversify';
import { TEMP_SUFFIX } from '../vault/temp-files.js';

interface Watched {
  readonly watcher: FSWatcher;
  readonly listeners: Set<(name: string | null) => void>;
}

/**
 * One `fs.watch` per folder, shared by everyone who follows it: the folders
 * that hold open documents, the folders the editor's file list shows unfolded,
 * the checkpoint index. A listener hears every change in the folder (a rename
 * shows up under the old and the new name, so filtering by name would miss
 * where a file went), except vmark's own temp files.
 */
@injectable()
export class FolderWatcher {
  #folders = new Map<string, Watched>();

  watchFolderOf(file: string, listener: (name: string | null) => void): Disposable {
    return this.watchFolder(path.dirname(file), listener);
  }

  /** A folder that cannot be watched (gone, or out of inotify watches) gives a subscription that hears nothing. */
  watchFolder(folder: string, listener: (name: string | null) => void): Disposable {
    let watched = this.#folders.get(folder);
    if (!watched) {
      const listeners = new Set<(name: string | null) => void>();
      let watcher: FSWatcher;
      try {
        watcher = watch(folder, { persistent: false }, (_event, name) => {
          // Our own temp files come and go with every save.
          if (name?.endsWith(TEMP_SUFFIX)) return;
          for (const l of [...listeners]) l(name);
        });
      } catch {
        // A folder that cannot be watched (gone, or out of inotify watches): saves still check the disk.
        return { dispose: () => undefined };
      }
      watcher.on('error', () => undefined);
      watched = { watcher, listeners };
      this.#folders.set(folder, watched);
    }
    const entry = watched;
    entry.listeners.add(listener);
    return {
      dispose: () => {
        entry.listeners.delete(listener);
        if (entry.listeners.size === 0) {
          entry.watcher.close();
          this.#folders.delete(folder);
        }
      },
    };
  }

  dispose(): void {
    for (const { watcher } of this.#folders.values()) watcher.close();
    this.#folders.clear();
  }
}
