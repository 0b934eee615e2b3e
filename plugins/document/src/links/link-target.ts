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

export function linkTarget(
  link: Pick<NoteLink, 'form' | 'target'>,
  notePath: string,
  files: readonly string[],
): string | null {
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

/**
 * Where a note that a link names but the vault lacks is created (ADR 76), or why it is not:
 * a Markdown link's path exactly as it resolves (next to the linking note, `.md` added when the
 * name has no extension); a wikilink's name next to the linking note, a wikilink with a folder in
 * it from the vault's root (as Obsidian reads a path). Only notes are made: a name with another
 * extension, a path that climbs out of the vault, looks absolute or holds a NUL is refused.
 */
export function newNotePath(
  link: Pick<NoteLink, 'form' | 'target'>,
  notePath: string | null,
): { readonly path: string } | { readonly refused: string } {
  const target = link.target;
  if (target.includes('\0') || target.includes('\\'))
    return { refused: 'names a path with a NUL or a backslash' };
  if (target.startsWith('/') || /^[A-Za-z]:/.test(target))
    return { refused: 'names an absolute path: only a note inside the workspace is created' };
  const wikilink = link.form === 'wikilink' || link.form === 'embed';
  const folder = notePath === null || (wikilink && target.includes('/')) ? '' : folderOf(notePath);
  const path = normalize(`${folder}${target}`);
  if (path === null || path === '') return { refused: 'leads out of the workspace' };
  const name = path.slice(path.lastIndexOf('/') + 1);
  if (/\.md$/i.test(name)) return { path };
  const extension = /\.([A-Za-z0-9]+)$/.exec(name)?.[1]?.toLowerCase();
  if (extension !== undefined && ATTACHMENTS.has(extension))
    return { refused: 'names a file that is not a note' };
  return { path: `${path}.md` };
}

/** What a vault links to besides notes (Obsidian's attachments): never made empty from a link. */
const ATTACHMENTS = new Set(
  'png jpg jpeg gif svg webp bmp avif pdf mp3 wav ogg m4a flac mp4 webm mov mkv canvas base json yml yaml txt csv html zip'.split(
    ' ',
  ),
);

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
