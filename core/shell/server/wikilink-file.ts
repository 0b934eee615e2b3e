/**
 * The file a wikilink embed (`![[pic.png]]`, `![[img/pic.png]]`) names among a workspace root's
 * files, as Obsidian finds it (ADR 74): by its name, or the end of its path, case-insensitively;
 * of several, the one in the note's own folder, then the shortest path, then the first in sort
 * order. Paths are `/`-separated and relative to the root; null when none matches.
 */
export function wikilinkFile(name: string, notePath: string, files: readonly string[]): string | null {
  const wanted = name.replace(/^\/+/, '').toLowerCase();
  if (wanted === '' || wanted.includes('\0') || wanted.split('/').includes('..')) return null;
  const noteFolder = folder(notePath);
  let best: string | null = null;
  for (const file of files) {
    const lower = file.toLowerCase();
    if (lower !== wanted && !lower.endsWith(`/${wanted}`)) continue;
    if (best === null || better(file, best, noteFolder)) best = file;
  }
  return best;
}

function better(a: string, b: string, noteFolder: string): boolean {
  const home = Number(folder(b) === noteFolder) - Number(folder(a) === noteFolder);
  if (home !== 0) return home < 0;
  if (a.length !== b.length) return a.length < b.length;
  return a < b;
}

function folder(file: string): string {
  return file.slice(0, file.lastIndexOf('/') + 1);
}
