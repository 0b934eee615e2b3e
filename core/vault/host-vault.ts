import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import type { FolderProbe, Vault } from '@vmark/sdk';
import { inject, injectable } from 'inversify';
import { HostOptionsToken } from '../tokens/host-tokens.js';
import type { HostOptions } from '../tokens/host-options.js';
import { probeFolder } from './folder-probe.js';
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
  readonly #home: string;
  #guarded: GuardedFolders | undefined;

  constructor(@inject(HostOptionsToken) options: Pick<HostOptions, 'home'>) {
    this.#home = path.resolve(options.home);
  }

  roots(): readonly string[] {
    return this.#workspaceRoots.map((r) => r.real);
  }

  async resolve(input: string): Promise<string> {
    return resolveInScope(input, this.#scope(), await this.#guard(), this.#workspaceRoots[0]?.real);
  }

  async canonicalFolder(input: string): Promise<string> {
    const lexical = lexicalResolve(input, undefined);
    const guarded = await this.#guard();
    refuseProtectedName(input, lexical, guarded);
    const real = await realpath(lexical).catch(() => null);
    if (real === null || !(await stat(real)).isDirectory())
      throw invalidPath(input, 'is not an accessible folder');
    // A workspace at or inside a protected folder would put all of it in reach.
    await refuseProtected(input, real, this.#scope(), guarded);
    return real;
  }

  /**
   * What a path the client asks to open as a workspace is, for the person (ADR 22). A path
   * that names a protected folder is refused at once: that follows from its spelling alone,
   * so the refusal tells the client nothing about the disk. One that leads there only through
   * links is described to the person like any other, and refused once they have answered.
   */
  async probeFolder(input: string): Promise<FolderProbe> {
    const guarded = await this.#guard();
    refuseProtectedName(input, lexicalResolve(input, undefined), guarded);
    const probe = await probeFolder(input);
    const leadsIn = await refuseProtected(input, probe.path, this.#scope(), guarded).then(
      () => false,
      () => true,
    );
    return leadsIn ? { path: probe.path, state: 'protected' } : probe;
  }

  /**
   * The canonical path of an existing file a person named (command line, dialog): it may lie
   * outside the scope, never in a protected folder, since its folder then joins the scope.
   */
  async consentedFile(input: string): Promise<string> {
    const lexical = lexicalResolve(input, process.cwd());
    const guarded = await this.#guard();
    refuseProtectedName(input, lexical, guarded);
    const real = await realpath(lexical).catch(() => {
      throw invalidPath(input, 'does not exist');
    });
    await refuseProtected(input, real, this.#scope(), guarded);
    return real;
  }

  /** `$VMARK_HOME` and its realpath, looked up once it exists: it does not move under a running host. */
  async #guard(): Promise<GuardedFolders> {
    if (this.#guarded !== undefined) return this.#guarded;
    const real = await realpath(this.#home).catch(() => null);
    const guarded = { home: this.#home, homeReal: real ?? this.#home };
    if (real !== null) this.#guarded = guarded;
    return guarded;
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
