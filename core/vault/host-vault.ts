import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Vault } from '@vmark/sdk';
import { inject, injectable } from 'inversify';
import { HostOptionsToken } from '../container/host-tokens.js';
import type { HostOptions } from '../host-options.js';
import { invalidPath, lexicalResolve } from './path-scope.js';
import {
  refuseProtected,
  refuseProtectedName,
  resolveInScope,
  type GuardedFolders,
  type ScopeRoot,
} from './resolve-in-scope.js';

/**
 * The file scope: workspace roots plus the folders of open documents (counted, since several
 * may share one), never `.vmark` folders or `$VMARK_HOME` (ADR 23).
 */
@injectable()
export class HostVault implements Vault {
  #workspaceRoots: ScopeRoot[] = [];
  #documentFolders = new Map<string, number>();
  readonly #guarded: GuardedFolders;

  constructor(@inject(HostOptionsToken) options: Pick<HostOptions, 'home'>) {
    this.#guarded = { home: path.resolve(options.home) };
  }

  roots(): readonly string[] {
    return this.#workspaceRoots.map((r) => r.real);
  }

  resolve(input: string): Promise<string> {
    return resolveInScope(input, this.#scope(), this.#guarded, this.#workspaceRoots[0]?.real);
  }

  async canonicalFolder(input: string): Promise<string> {
    const lexical = lexicalResolve(input, undefined);
    await refuseProtectedName(input, lexical, this.#guarded);
    const real = await realpath(lexical).catch(() => null);
    if (real === null || !(await stat(real)).isDirectory())
      throw invalidPath(input, 'is not an accessible folder');
    // A workspace at or inside a protected folder would put all of it in reach.
    await refuseProtected(input, lexical, real, this.#scope(), this.#guarded);
    return real;
  }

  /**
   * The canonical path of an existing file a person named (command line, dialog): it may lie
   * outside the scope, never in a protected folder, since its folder then joins the scope.
   */
  async consentedFile(input: string): Promise<string> {
    const lexical = lexicalResolve(input, process.cwd());
    const real = await realpath(lexical).catch(() => {
      throw invalidPath(input, 'does not exist');
    });
    await refuseProtected(input, lexical, real, this.#scope(), this.#guarded);
    return real;
  }

  #scope(): ScopeRoot[] {
    const folders = [...this.#documentFolders.keys()].map((real) => ({ lexical: real, real }));
    return [...this.#workspaceRoots, ...folders];
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
