/**
 * The walk again after a change, re-checking only the paths a watcher reported (ADR 59): each
 * reported path is looked at anew — a file is re-stat'ed (and read if its signature changed), a
 * folder is listed again with everything below it, a path that is gone takes everything that was
 * at or below it along — and the rest of the earlier walk is kept as it was. The result is the
 * walk a whole `walkWorkspace` would return now, provided that nothing changed outside the
 * reported paths; the caller vouches for that (change-monitor.ts).
 */
import { lstatSync } from 'node:fs';
import { join } from 'node:path';
import { errorCode } from '@vmark/sdk';
import {
  classifyEntry,
  DEFAULT_MAX_FILES,
  emptyListing,
  listFolders,
  readCandidates,
  SKIPPED_DIRS,
  walkResult,
  wallClockNs,
  type WalkOptions,
  type WalkResult,
} from './walk-workspace.js';

/**
 * `previous` updated at the `changed` paths (workspace-relative, `/`-separated), or null when
 * only a whole walk can say: the earlier walk was cut short, this one would be, or a path could
 * not be looked at (anything but "not there").
 */
export async function walkChanges(
  root: string,
  previous: WalkResult,
  changed: Iterable<string>,
  options: WalkOptions = {},
): Promise<WalkResult | null> {
  if (!previous.complete) return null;
  const walkStartNs = wallClockNs();
  options.cache?.useFor(root);
  const maxFiles = options.maxFiles ?? DEFAULT_MAX_FILES;
  const roots = outermost(changed, new Set(previous.skippedDirs));
  if (roots.size === 0) return previous;
  const touched = (path: string | undefined): boolean => path !== undefined && isAtOrBelow(path, roots);

  const listing = emptyListing();
  const folders: string[] = [];
  for (const rel of roots) {
    let info;
    try {
      info = lstatSync(join(root, ...rel.split('/')), { throwIfNoEntry: false });
    } catch (error) {
      // ENOTDIR: a parent is now a file, whose own event removes what was below it.
      if (errorCode(error) === 'ENOTDIR') continue;
      return null;
    }
    if (info === undefined) continue; // gone, with everything that was below it
    const folder = classifyEntry(root, rel, info, listing, maxFiles);
    if (folder !== undefined) folders.push(folder);
  }
  await listFolders(root, folders, listing, maxFiles);
  if (listing.truncated) return null;

  const kept = previous.files.filter((f) => !touched(f.path));
  if (kept.length + listing.candidates.length > maxFiles) return null;
  const read = await readCandidates(root, listing.candidates, options, walkStartNs);
  if (options.cache !== undefined) {
    const now = new Set(read.files.map((f) => f.path));
    for (const f of previous.files) if (touched(f.path) && !now.has(f.path)) options.cache.forget(f.path);
  }
  return walkResult(
    [...kept, ...read.files],
    [...previous.diagnostics.filter((d) => !touched(d.path)), ...listing.diagnostics, ...read.diagnostics],
    [...previous.skipped.filter((p) => !touched(p)), ...listing.skipped, ...read.skipped],
    [...previous.skippedDirs.filter((p) => !touched(p)), ...listing.skippedDirs],
    true,
  );
}

/**
 * The changed paths a walk would look at, without those below another one (listing that one
 * covers them) or below a folder the walk does not enter (a link to a folder: a watch that
 * followed it reports paths the walk never lists).
 */
function outermost(changed: Iterable<string>, notEntered: ReadonlySet<string>): Set<string> {
  const roots = new Set<string>();
  for (const path of [...new Set(changed)].sort()) {
    const parts = path.split('/');
    if (parts.some((p) => p === '' || p === '.' || p === '..' || SKIPPED_DIRS.has(p))) continue;
    if (isBelow(path, roots) || isBelow(path, notEntered)) continue;
    roots.add(path);
  }
  return roots;
}

/** Whether a proper ancestor folder of `path` is in `folders`. */
function isBelow(path: string, folders: ReadonlySet<string>): boolean {
  for (let at = path.indexOf('/'); at !== -1; at = path.indexOf('/', at + 1))
    if (folders.has(path.slice(0, at))) return true;
  return false;
}

const isAtOrBelow = (path: string, roots: ReadonlySet<string>): boolean =>
  roots.has(path) || isBelow(path, roots);
