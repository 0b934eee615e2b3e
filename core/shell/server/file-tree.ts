import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Vault } from '@vmark/sdk';
import { DomainError } from '@vmark/sdk';
import type { TreeEntry } from '../../protocol/protocol.js';
import { isHiddenEntry } from '../../workspace-files/hidden-entry.js';

/**
 * One level of the file tree, listed lazily as the person unfolds it, with the
 * canonical folder it names. The folder is resolved through the vault's scope
 * first, so the tree shows nothing outside the open workspace roots and the
 * folders of open documents. Folders first, then files, each in natural order;
 * symlinks are shown by what they point at. `beforeRead` gets the canonical
 * folder before it is read: a watch set up there misses nothing the listing
 * does not show (a file made between the two is in one or the other).
 */
export async function listFolder(
  vault: Vault,
  folder: string,
  beforeRead?: (canonical: string) => void,
): Promise<{ folder: string; entries: TreeEntry[] }> {
  const canonical = await vault.resolve(folder);
  beforeRead?.(canonical);
  const dirents = await readdir(canonical, { withFileTypes: true }).catch(() => {
    throw new DomainError('INVALID_PATH', `${JSON.stringify(folder)} is not a readable folder`);
  });
  const entries: TreeEntry[] = [];
  for (const dirent of dirents) {
    if (isHiddenEntry(dirent.name)) continue;
    const entryPath = path.join(canonical, dirent.name);
    const type = dirent.isDirectory()
      ? 'folder'
      : dirent.isFile()
        ? 'file'
        : await linkType(vault, entryPath);
    if (type !== null) entries.push({ name: dirent.name, path: entryPath, type });
  }
  const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });
  entries.sort((a, b) =>
    a.type === b.type ? collator.compare(a.name, b.name) : a.type === 'folder' ? -1 : 1,
  );
  return { folder: canonical, entries };
}

/** What a symlink points at, if that stays inside the scope. */
async function linkType(vault: Vault, entryPath: string): Promise<TreeEntry['type'] | null> {
  const target = await vault.resolve(entryPath).catch(() => null);
  if (target === null) return null;
  const info = await stat(target).catch(() => null);
  return info?.isDirectory() ? 'folder' : info?.isFile() ? 'file' : null;
}
