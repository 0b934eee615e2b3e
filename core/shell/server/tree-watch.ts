import type { Disposable, Vault } from '@vmark/sdk';
import type { FolderWatcher } from '../../documents/folder-watcher.js';
import type { TreeEntry } from '../../protocol/protocol.js';
import { type Debounced, debounce } from '../../workspace-files/debounce.js';
import { listFolder } from './file-tree.js';

/**
 * How many folders one page may have followed at once. A person unfolds a few; past this a
 * folder is still listed, but not followed (inotify watches are a shared, limited resource).
 */
export const MAX_FOLLOWED_FOLDERS = 256;

/** A create, delete or rename comes as a burst of events (a save is a write and a rename): told once. */
const SETTLE_MS = 50;

interface Followed {
  readonly subscription: Disposable;
  readonly changed: Debounced;
}

/**
 * The folders one page's file list shows unfolded, followed on disk: each one
 * the page listed, until it folds it again or goes away. A change in one is
 * told to the page by the path it listed it by, and the page lists it again.
 * The watches are the host's shared ones (`FolderWatcher`), which pass over
 * vmark's own temp files.
 */
export class TreeWatch implements Disposable {
  readonly #followed = new Map<string, Followed>();

  constructor(
    private readonly folders: Pick<FolderWatcher, 'watchFolder'>,
    private readonly changed: (path: string) => void,
  ) {}

  /** `path` as the page listed it; `canonical`, the folder it resolved to in the vault's scope. */
  follow(path: string, canonical: string): void {
    if (this.#followed.has(path) || this.#followed.size >= MAX_FOLLOWED_FOLDERS) return;
    const changed = debounce(() => this.changed(path), SETTLE_MS);
    const subscription = this.folders.watchFolder(canonical, () => changed());
    this.#followed.set(path, { subscription, changed });
  }

  /**
   * Lists `path` for the page, following it from before the read on (or a file made in between
   * would show only at the folder's next change). What cannot be read as a folder is not followed.
   */
  async list(vault: Vault, path: string): Promise<TreeEntry[]> {
    let told = false;
    try {
      const { entries } = await listFolder(vault, path, (canonical) => {
        told = true;
        this.follow(path, canonical);
      });
      return entries;
    } catch (error) {
      if (told) this.fold(path);
      throw error;
    }
  }

  fold(path: string): void {
    const followed = this.#followed.get(path);
    if (!followed) return;
    this.#followed.delete(path);
    followed.changed.cancel();
    followed.subscription.dispose();
  }

  /** How many folders are followed now. */
  get size(): number {
    return this.#followed.size;
  }

  dispose(): void {
    for (const path of [...this.#followed.keys()]) this.fold(path);
  }
}
