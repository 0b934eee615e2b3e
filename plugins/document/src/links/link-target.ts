/**
 * Which file of the vault a link names, the way Obsidian resolves it, so that a vault moved
 * over from Obsidian keeps working (issue 19). Paths are vault-relative with `/`.
 *
 * - A Markdown link is a path relative to the note's folder (`/…` from the vault's root),
 *   with `.md` added when the file without it does not exist. One that leaves the vault names
 *   nothing.
 * - A wikilink names a file by its name (`.md` may be left out), case-insensitively; with a `/`
 *   in it, by the end of its path. Of several, the one in the note's own folder wins, then the
 *   shortest path, then the first in sort order.
 * - A same-note link (`#heading`, `[[#heading]]`) names the note itself.
 */
import type { NoteLink } from './note-links.js';

export function linkTarget(link: NoteLink, notePath: string, files: readonly string[]): string | null {
  if (link.target === '') return notePath;
  return link.form === 'wikilink' || link.form === 'embed'
    ? wikilinkTarget(link.target, notePath, files)
    : markdownTarget(link.target, notePath, files);
}

function markdownTarget(target: string, notePath: string, files: readonly string[]): string | null {
  const joined = target.startsWith('/') ? target.slice(1) : `${folderOf(notePath)}${target}`;
  const path = normalize(joined);
  if (path === null) return null;
  const known = new Set(files);
  if (known.has(path)) return path;
  return known.has(`${path}.md`) ? `${path}.md` : null;
}

function wikilinkTarget(target: string, notePath: string, files: readonly string[]): string | null {
  const wanted = (normalize(target.replace(/^\//, '')) ?? target).toLowerCase();
  const candidates = files.filter((file) => {
    const name = file.toLowerCase();
    return [name, name.replace(/\.md$/, '')].some((form) => form === wanted || form.endsWith(`/${wanted}`));
  });
  if (candidates.length === 0) return null;
  const folder = folderOf(notePath);
  return candidates.sort(
    (a, b) =>
      Number(folderOf(b) === folder) - Number(folderOf(a) === folder) ||
      a.length - b.length ||
      (a < b ? -1 : a > b ? 1 : 0),
  )[0]!;
}

/** The folder part of a vault path, with its trailing `/` (empty at the root). */
export function folderOf(path: string): string {
  return path.slice(0, path.lastIndexOf('/') + 1);
}

/** `a/./b/../c` → `a/c`; null for a path that climbs out of the vault or holds a NUL. */
function normalize(path: string): string | null {
  if (path.includes('\0')) return null;
  const parts: string[] = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (parts.length === 0) return null;
      parts.pop();
    } else parts.push(part);
  }
  return parts.join('/');
}
