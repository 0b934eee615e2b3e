/**
 * The full path scope guard (DESIGN §4): lexical check, then realpath and check
 * again, so that neither `../` nor a symbolic link leads out of the scope, nor
 * into a protected folder (`.vmark`, `$VMARK_HOME`: `protected-folders.ts`).
 *
 * What it cannot close is the race between this check and the later file
 * operation (a folder swapped for a link in between). The writer narrows it:
 * `writeFileAtomic` renames onto the canonical path this returns, and rename
 * replaces a link at that name instead of following it.
 *
 * Every save runs it, so its realpaths and stats are synchronous: microseconds each, where a
 * trip through libuv's thread pool costs more than the call (ADR 47).
 */
import { lstatSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { errorCode } from '@vmark/sdk';
import { invalidPath, isWithinRoot, lexicalResolve, quotePath } from './path-scope.js';
import {
  INSIDE_LEDGER_FOLDER,
  INSIDE_VMARK_HOME,
  protectedReason,
  VMARK_FOLDER,
} from './protected-folders.js';

/** One folder of the scope: as given (normalized) and its realpath. */
export interface ScopeRoot {
  readonly lexical: string;
  readonly real: string;
}

/** The folders that stay out of reach even inside the scope. */
export interface GuardedFolders {
  /** `$VMARK_HOME` as given (absolute, normalized)... */
  readonly home: string;
  /** ...and its realpath (the same string when it does not exist). */
  readonly homeReal: string;
}

const OUTSIDE = 'is outside the open workspace and document folders';

/**
 * Resolves `input` inside `roots` and returns its canonical real path. A path
 * that does not exist yet is checked through its parent folder, which must exist.
 * @throws DomainError `INVALID_PATH` naming the path and the reason.
 */
export function resolveInScope(
  input: string,
  roots: readonly ScopeRoot[],
  guarded: GuardedFolders,
  base?: string,
): Promise<string> {
  return new Promise((resolve) => resolve(resolveNow(input, roots, guarded, base)));
}

/** `resolveInScope`, synchronous: throws the refusal. */
function resolveNow(
  input: string,
  roots: readonly ScopeRoot[],
  guarded: GuardedFolders,
  base?: string,
): string {
  if (roots.length === 0) {
    throw invalidPath(input, 'cannot be used: no workspace or document is open, so there is no file scope');
  }
  const lexical = lexicalResolve(input, base);
  // Both forms: a root given through a link (macOS `/tmp`) must accept paths written either way.
  if (!roots.some((root) => isWithinRoot(lexical, root.lexical) || isWithinRoot(lexical, root.real))) {
    throw invalidPath(input, OUTSIDE);
  }
  // Before the disk is asked about the path: the answer must not depend on what exists there.
  refuseProtectedName(input, lexical, guarded);
  const real = canonicalPath(input, lexical);
  if (!roots.some((root) => isWithinRoot(real, root.real))) {
    throw invalidPath(input, `${OUTSIDE} (it resolves through a symbolic link to ${quotePath(real)})`);
  }
  assertNotProtected(input, real, roots, guarded);
  return real;
}

/** Refuses `form` (absolute, normalized) when its spelling names a protected folder. */
export function refuseProtectedName(input: string, form: string, guarded: GuardedFolders): void {
  const reason = protectedReason(form, [guarded.home, guarded.homeReal]);
  if (reason !== null) throw invalidPath(input, reason);
}

/**
 * Refuses a canonical path that is, or lies inside, a protected folder: by its spelling, then
 * by identity — no folder on its way up may *be* `$VMARK_HOME` or a root's `.vmark` (device and
 * inode), which catches the aliases no spelling shows. The walk stops at the innermost scope
 * root holding the path: roots are checked as they join the scope, so nothing above one is new.
 * @param real the canonical path (of a file not yet created: its canonical parent + name).
 */
export function refuseProtected(
  input: string,
  real: string,
  roots: readonly ScopeRoot[],
  guarded: GuardedFolders,
): Promise<void> {
  // A promise executor that throws rejects it: the callers see a refusal as before.
  return new Promise((resolve) => {
    assertNotProtected(input, real, roots, guarded);
    resolve();
  });
}

/** `refuseProtected`, synchronous: throws the refusal. */
function assertNotProtected(
  input: string,
  real: string,
  roots: readonly ScopeRoot[],
  guarded: GuardedFolders,
): void {
  refuseProtectedName(input, real, guarded);
  // One look per distinct folder: a workspace root and an open document's folder are often the same.
  const ledgers = new Set(roots.map((root) => path.join(root.real, VMARK_FOLDER)));
  const folders = [
    { folder: guarded.homeReal, reason: INSIDE_VMARK_HOME },
    ...[...ledgers].map((folder) => ({ folder, reason: INSIDE_LEDGER_FOLDER })),
  ];
  const holder = roots
    .filter((root) => isWithinRoot(real, root.real))
    .sort((a, b) => b.real.length - a.real.length)[0]?.real;
  const chain = [real];
  for (let at = real; at !== holder && path.dirname(at) !== at;) chain.push((at = path.dirname(at)));
  const known = folders.map((f) => ({ ...f, id: identityOf(f.folder) }));
  const seen = chain.map(identityOf);
  for (const { id, reason } of known) {
    if (id !== null && seen.includes(id)) throw invalidPath(input, reason);
  }
}

/** Device and inode of what `target` names, or null when it does not exist or has no stable inode. */
function identityOf(target: string): string | null {
  try {
    // A missing folder (most workspaces have no `.vmark`) is answered without an error built and thrown.
    const info = statSync(target, { bigint: true, throwIfNoEntry: false });
    // Some file systems report inode 0 for everything: no identity to compare.
    return info === undefined || info.ino === 0n ? null : `${info.dev}:${info.ino}`;
  } catch {
    return null;
  }
}

/** realpath of the path, or of its parent folder joined with the name for a file not yet created. */
function canonicalPath(input: string, lexical: string): string {
  try {
    return realpathSync.native(lexical);
  } catch (error) {
    if (errorCode(error) !== 'ENOENT') throw unusable(input, error);
  }
  // A dangling link would pass the parent check, then a write that follows it
  // (anything but rename) would create its target outside the scope.
  if (isSymlink(lexical)) throw invalidPath(input, 'is a symbolic link to a missing target');
  const parent = path.dirname(lexical);
  let realParent: string;
  try {
    realParent = realpathSync.native(parent);
  } catch (error) {
    if (errorCode(error) === 'ENOENT')
      throw invalidPath(input, `cannot be used: folder ${quotePath(parent)} does not exist`);
    throw unusable(input, error);
  }
  return path.join(realParent, path.basename(lexical));
}

function isSymlink(target: string): boolean {
  try {
    return lstatSync(target).isSymbolicLink();
  } catch {
    return false;
  }
}

/** Maps realpath failures other than "missing" to a refusal that says why. */
function unusable(input: string, error: unknown): Error {
  switch (errorCode(error)) {
    case 'ENOTDIR':
      return invalidPath(input, 'cannot be used: a part of it is a file, not a folder');
    case 'ELOOP':
      return invalidPath(input, 'cannot be used: its symbolic links form a loop');
    case 'ENAMETOOLONG':
      return invalidPath(input, 'is too long');
    case 'EACCES':
    case 'EPERM':
      return invalidPath(input, 'cannot be used: permission denied');
    default:
      return error instanceof Error ? error : new Error(String(error));
  }
}
