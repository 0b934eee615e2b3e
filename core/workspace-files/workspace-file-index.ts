import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Disposable, Vault } from '@vmark/sdk';
import { SerialQueue } from '@vmark/sdk';
import type { FolderWatcher } from '../documents/folder-watcher.js';
import { PathIndex } from '../matching/path-index.js';
import { isWithinRoot } from '../vault/path-scope.js';
import { protectedReason } from '../vault/protected-folders.js';
import { type Debounced, debounce } from './debounce.js';
import { isHiddenEntry } from './hidden-entry.js';

/** Past this many files the index stops growing (memory stays bounded) and says so. */
export const MAX_INDEXED_FILES = 200_000;
/** Past this many folders the rest are listed once but not followed (inotify watches are shared). */
export const MAX_FOLLOWED_FOLDERS = 8_192;
/** Folders listed at once during a walk. */
const WALKERS = 8;
/** A create, delete or rename comes as a burst of events in a folder: that folder is listed again once. */
const SETTLE_MS = 50;

export interface FileIndexStatus {
  /** The first walk is still under way; `files` counts what it found so far. */
  readonly building: boolean;
  readonly files: number;
  readonly folders: number;
  /** What the index leaves out and why, for the person (a bound reached, links not followed). */
  readonly notes: readonly string[];
}

interface Folder {
  readonly files: Set<string>;
  readonly folders: Set<string>;
  readonly watch: Disposable;
  readonly relisted: Debounced;
  /** One listing at a time: a later listing's answer is never overwritten by an earlier one's. */
  readonly listings: SerialQueue;
}

/**
 * The files of one workspace root for quick open, as `/`-separated paths relative to it. The first
 * walk lists each folder once (names and types only: no file is opened or read); every folder
 * walked is then followed through the host's shared `FolderWatcher`, and a change in it lists that
 * one folder again. It shows what the file list shows: hidden entries (dot names but `.github`)
 * and protected folders (`.vmark`, `$VMARK_HOME`) left out, a symlink only when it stays inside
 * the root through the vault's path guard, linked folders not descended into.
 */
export class WorkspaceFileIndex implements Disposable {
  readonly index = new PathIndex();
  readonly ready: Promise<void>;
  readonly #folders = new Map<string, Folder>();
  #building = true;
  #disposed = false;
  #truncated = false;
  #unfollowed = 0;
  readonly #linkedFolders = new Set<string>();
  #listing = 0;
  readonly #waiting: (() => void)[] = [];
  readonly #changes = new Set<(folder: string, name: string | null) => void>();
  #generation = 0;

  constructor(
    readonly root: string,
    private readonly watcher: Pick<FolderWatcher, 'watchFolder'>,
    private readonly vault: Pick<Vault, 'resolve'>,
    /** `$VMARK_HOME` as given and as realpath. */
    private readonly homes: readonly string[],
  ) {
    this.ready = this.#walk('').finally(() => (this.#building = false));
  }

  status(): FileIndexStatus {
    const notes: string[] = [];
    if (this.#truncated)
      notes.push(`Only the first ${MAX_INDEXED_FILES.toLocaleString('en')} files are listed.`);
    if (this.#unfollowed > 0)
      notes.push(
        `${this.#unfollowed} folders are listed but not followed: changes there show after a restart.`,
      );
    if (this.#linkedFolders.size > 0)
      notes.push(`${this.#linkedFolders.size} linked folders are not descended into.`);
    return { building: this.#building, files: this.index.size, folders: this.#folders.size, notes };
  }

  /** Counts the listings that may have changed the files: the same count, the same list. */
  get generation(): number {
    return this.#generation;
  }

  /**
   * Hears every change the watcher reports in a followed folder: the absolute folder and the
   * entry's name (null: something in it, unnamed). Vault search forgets the texts it kept (ADR 68).
   */
  onChange(listener: (folder: string, name: string | null) => void): Disposable {
    this.#changes.add(listener);
    return { dispose: () => this.#changes.delete(listener) };
  }

  dispose(): void {
    this.#disposed = true;
    this.#changes.clear();
    for (const folder of this.#folders.values()) {
      folder.relisted.cancel();
      folder.watch.dispose();
    }
    this.#folders.clear();
  }

  /**
   * Follows the folder at `relative` and walks everything below it, up to `WALKERS` folders listed
   * at once: one listing after another waits out a trip through the thread pool each.
   */
  async #walk(relative: string): Promise<void> {
    if (this.#disposed) return;
    const folder = this.#follow(relative);
    if (folder === null) return;
    await this.#slot();
    let subfolders: string[];
    try {
      subfolders = await folder.listings.run(() => this.#list(relative, folder));
    } finally {
      this.#release();
    }
    await Promise.all(subfolders.map((sub) => this.#walk(sub)));
  }

  async #slot(): Promise<void> {
    if (this.#listing < WALKERS) {
      this.#listing++;
      return;
    }
    await new Promise<void>((resolve) => this.#waiting.push(resolve));
  }

  /** Hands the slot to the next waiting listing, or frees it. */
  #release(): void {
    const next = this.#waiting.shift();
    if (next) next();
    else this.#listing--;
  }

  #follow(relative: string): Folder | null {
    if (this.#folders.has(relative)) return null;
    const absolute = this.#absolute(relative);
    let watch: Disposable = { dispose: () => undefined };
    if (this.#folders.size < MAX_FOLLOWED_FOLDERS) {
      // Followed before it is listed: a change made while it is listed is heard.
      watch = this.watcher.watchFolder(absolute, (name) => {
        folder.relisted();
        for (const listener of this.#changes) listener(absolute, name);
      });
    } else this.#unfollowed++;
    const folder: Folder = {
      files: new Set(),
      folders: new Set(),
      watch,
      relisted: debounce(() => void this.#relist(relative), SETTLE_MS),
      listings: new SerialQueue(),
    };
    this.#folders.set(relative, folder);
    return folder;
  }

  /**
   * Lists the folder and brings its entries in line: files in or out of the index, subfolders
   * forgotten (with all below them) or returned to be walked.
   */
  async #list(relative: string, folder: Folder): Promise<string[]> {
    const dirents = await readdir(this.#absolute(relative), { withFileTypes: true }).catch(() => null);
    // Forgotten meanwhile (the folder went, or a parent did): its files stay out.
    if (dirents === null || this.#disposed || this.#folders.get(relative) !== folder) return [];
    const files = new Set<string>();
    const folders = new Set<string>();
    for (const dirent of dirents) {
      // Plain files and folders are told apart without a wait: a folder may hold thousands.
      if (isHiddenEntry(dirent.name)) continue;
      if (dirent.isFile()) files.add(dirent.name);
      else if (dirent.isDirectory()) {
        if (this.#mayEnter(relative, dirent.name)) folders.add(dirent.name);
      } else if (dirent.isSymbolicLink() && (await this.#linkIsFile(relative, dirent.name)))
        files.add(dirent.name);
    }
    if (this.#folders.get(relative) !== folder) return [];
    this.#generation++;
    for (const name of folder.files) if (!files.has(name)) this.index.delete(join(relative, name));
    for (const name of files) {
      if (this.index.size >= MAX_INDEXED_FILES && !this.index.has(join(relative, name))) {
        this.#truncated = true;
        files.delete(name);
      } else this.index.add(join(relative, name));
    }
    for (const name of folder.folders) if (!folders.has(name)) this.#forget(join(relative, name));
    const added = [...folders]
      .filter((name) => !folder.folders.has(name))
      .map((name) => join(relative, name));
    folder.files.clear();
    folder.folders.clear();
    for (const name of files) folder.files.add(name);
    for (const name of folders) folder.folders.add(name);
    return added;
  }

  async #relist(relative: string): Promise<void> {
    const folder = this.#folders.get(relative);
    if (folder === undefined || this.#disposed) return;
    const subfolders = await folder.listings.run(() => this.#list(relative, folder));
    await Promise.all(subfolders.map((sub) => this.#walk(sub)));
  }

  /** A folder gone (deleted, renamed away, now hidden): its files and everything below leave the index. */
  #forget(relative: string): void {
    this.#generation++;
    for (const [key, folder] of this.#folders) {
      if (key !== relative && !key.startsWith(`${relative}/`)) continue;
      folder.relisted.cancel();
      folder.watch.dispose();
      for (const name of folder.files) this.index.delete(join(key, name));
      this.#folders.delete(key);
    }
  }

  /** A folder inside a protected one (`$VMARK_HOME` in the workspace) is left out with all below it. */
  #mayEnter(relative: string, name: string): boolean {
    return protectedReason(path.join(this.#absolute(relative), name), this.homes) === null;
  }

  /** A link is listed by its own path, and only when the path guard lets it through to the root. */
  async #linkIsFile(relative: string, name: string): Promise<boolean> {
    const absolute = path.join(this.#absolute(relative), name);
    const target = await this.vault.resolve(absolute).catch(() => null);
    if (target === null || !isWithinRoot(target, this.root)) return false;
    const info = await stat(target).catch(() => null);
    if (info?.isDirectory()) this.#linkedFolders.add(join(relative, name));
    return info?.isFile() === true;
  }

  #absolute(relative: string): string {
    return relative === '' ? this.root : path.join(this.root, ...relative.split('/'));
  }
}

function join(folder: string, name: string): string {
  return folder === '' ? name : `${folder}/${name}`;
}
