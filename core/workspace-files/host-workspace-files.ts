import { realpathSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { Disposable, WorkspaceFileChange, WorkspaceFiles } from '@vmark/sdk';
import { DomainError } from '@vmark/sdk';
import { inject, injectable } from 'inversify';
import { FolderWatcher } from '../documents/folder-watcher.js';
import { readTextFile } from '../documents/read-text-file.js';
import { HostOptionsToken } from '../tokens/host-tokens.js';
import type { HostOptions } from '../tokens/host-options.js';
import { HostVault } from '../vault/host-vault.js';
import { isWithinRoot } from '../vault/path-scope.js';
import { WorkspaceFileIndex } from './workspace-file-index.js';

/**
 * The host's `WorkspaceFiles` (ADR 76): one `WorkspaceFileIndex` per workspace root, started by
 * the first that asks — quick open, vault search, a plugin's link index — and shared by all of
 * them, so the vault is walked and watched once.
 */
@injectable()
export class HostWorkspaceFiles implements WorkspaceFiles, Disposable {
  readonly #indexes = new Map<string, WorkspaceFileIndex>();
  readonly #homes: readonly string[];

  constructor(
    @inject(FolderWatcher) private readonly folders: Pick<FolderWatcher, 'watchFolder'>,
    @inject(HostVault) private readonly vault: Pick<HostVault, 'resolve' | 'roots'>,
    @inject(HostOptionsToken) options: Pick<HostOptions, 'home'>,
  ) {
    const home = path.resolve(options.home);
    let real = home;
    try {
      real = realpathSync(home);
    } catch {
      // Not made yet: its spelling is all there is to leave out.
    }
    this.#homes = [home, real];
  }

  /** The index of a workspace root, started on first use. */
  indexOf(root: string): WorkspaceFileIndex {
    let index = this.#indexes.get(root);
    if (index === undefined) {
      index = new WorkspaceFileIndex(root, this.folders, this.vault, this.#homes);
      this.#indexes.set(root, index);
    }
    return index;
  }

  rootOf(filePath: string): string | null {
    // The deepest root that holds it: a root opened inside another answers for its own files.
    let found: string | null = null;
    for (const root of this.vault.roots())
      if (isWithinRoot(filePath, root) && (found === null || root.length > found.length)) found = root;
    return found;
  }

  async list(root: string): Promise<readonly string[]> {
    const index = this.#known(root);
    await index.ready;
    return [...index.index.paths()];
  }

  onChange(root: string, listener: (change: WorkspaceFileChange) => void): Disposable {
    return this.#known(root).onChange((folder, name) => {
      const relative = path.relative(root, folder).split(path.sep).join('/');
      listener({ folder: relative, name });
    });
  }

  async readText(root: string, relativePath: string, maxBytes: number): Promise<string | null> {
    if (relativePath.includes('\0')) return null;
    const absolute = path.resolve(root, ...relativePath.split('/'));
    if (!isWithinRoot(absolute, root)) return null;
    try {
      const canonical = await this.vault.resolve(absolute);
      if (!isWithinRoot(canonical, root)) return null;
      const info = await stat(canonical);
      if (!info.isFile() || info.size > maxBytes) return null;
      return (await readTextFile(canonical)).content;
    } catch {
      return null;
    }
  }

  dispose(): void {
    for (const index of this.#indexes.values()) index.dispose();
    this.#indexes.clear();
  }

  /** Only an open workspace root is indexed: a plugin names no folder of its own choosing. */
  #known(root: string): WorkspaceFileIndex {
    if (!this.vault.roots().includes(root))
      throw new DomainError('INVALID_PATH', `${JSON.stringify(root)} is no open workspace root`);
    return this.indexOf(root);
  }
}
