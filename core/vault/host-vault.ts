import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import type { FolderProbe, Vault } from '@vmark/sdk';
import { injectable } from 'inversify';
import { probeFolder } from './folder-probe.js';
import { invalidPath, lexicalResolve } from './path-scope.js';
import { resolveInScope, type ScopeRoot } from './resolve-in-scope.js';

/** The file scope: workspace roots plus the folders of open documents (counted, since several may share one). */
@injectable()
export class HostVault implements Vault {
  #workspaceRoots: ScopeRoot[] = [];
  #documentFolders = new Map<string, number>();

  roots(): readonly string[] {
    return this.#workspaceRoots.map((r) => r.real);
  }

  resolve(input: string): Promise<string> {
    const folders = [...this.#documentFolders.keys()].map((real) => ({ lexical: real, real }));
    return resolveInScope(input, [...this.#workspaceRoots, ...folders], this.#workspaceRoots[0]?.real);
  }

  async canonicalFolder(input: string): Promise<string> {
    const lexical = lexicalResolve(input, undefined);
    const real = await realpath(lexical).catch(() => null);
    if (real === null || !(await stat(real)).isDirectory())
      throw invalidPath(input, 'is not an accessible folder');
    return real;
  }

  probeFolder(input: string): Promise<FolderProbe> {
    return probeFolder(input);
  }

  /** Adds a workspace root; returns its canonical path. The caller has the person's consent. */
  async addWorkspaceRoot(folder: string): Promise<string> {
    const real = await this.canonicalFolder(folder);
    if (!this.#workspaceRoots.some((r) => r.real === real)) {
      this.#workspaceRoots.push({ lexical: path.resolve(folder), real });
    }
    return real;
  }

  /** The folder of an open document joins the scope while the document is open. */
  addDocumentFolder(canonicalFile: string): void {
    const folder = path.dirname(canonicalFile);
    this.#documentFolders.set(folder, (this.#documentFolders.get(folder) ?? 0) + 1);
  }

  removeDocumentFolder(canonicalFile: string): void {
    const folder = path.dirname(canonicalFile);
    const count = (this.#documentFolders.get(folder) ?? 0) - 1;
    if (count > 0) this.#documentFolders.set(folder, count);
    else this.#documentFolders.delete(folder);
  }
}
