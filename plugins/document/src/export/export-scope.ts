/**
 * What an export may read (ADR 75): images inside the workspace only. In the editor, the host's
 * vault decides (its roots, open documents' folders, no `.vmark/`, no `$VMARK_HOME`, no link
 * out); at a terminal, the folder the person named with `--workspace` (default: the note's).
 * Wikilink embeds are found by name under that root, as the editor finds them (link-target.ts).
 */
import { realpath } from 'node:fs/promises';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Vault } from '@vmark/sdk';
import { linkTarget } from '../links/link-target.js';
import type { ExportScope } from './export-note.js';

/** How many entries a search for an embed lists before it gives up. */
const MAX_LISTED = 50_000;

/** The scope of the host's vault, for the editor's export command. */
export function vaultScope(vault: Pick<Vault, 'resolve' | 'roots'>, notePath: string): ExportScope {
  const root =
    vault
      .roots()
      .filter((r) => notePath.startsWith(r + path.sep))
      .sort((a, b) => b.length - a.length)[0] ?? path.dirname(notePath);
  return { resolve: (file) => vault.resolve(file), embed: (name) => findEmbed(root, notePath, name) };
}

/** The scope of one folder, for `vmark export`: its real path holds the file, outside `.vmark` and `home`. */
export async function folderScope(folder: string, notePath: string, home: string): Promise<ExportScope> {
  const root = await realpath(folder);
  const homeReal = await realpath(home).catch(() => path.resolve(home));
  return {
    resolve: async (file) => {
      if (file.includes('\0')) throw new Error('NUL in path');
      const real = await realpath(file);
      const relative = path.relative(root, real);
      if (relative.startsWith('..') || path.isAbsolute(relative)) throw new Error('outside the workspace');
      if (relative.split(path.sep).some((s) => s.toLowerCase() === '.vmark')) throw new Error('in .vmark');
      if (real === homeReal || real.startsWith(homeReal + path.sep)) throw new Error('in VMARK_HOME');
      return real;
    },
    embed: (name) => findEmbed(root, notePath, name),
  };
}

async function findEmbed(root: string, notePath: string, name: string): Promise<string | null> {
  const files = await listFiles(root);
  const note = path.relative(root, notePath).split(path.sep).join('/');
  const found = linkTarget({ form: 'embed', target: name }, note, files);
  return found === null ? null : path.join(root, ...found.split('/'));
}

/** The files under `root`, `/`-separated, hidden entries and links left out, bounded. */
async function listFiles(root: string): Promise<string[]> {
  const files: string[] = [];
  const folders = [''];
  let listed = 0;
  while (folders.length > 0 && listed < MAX_LISTED) {
    const folder = folders.shift()!;
    const entries = await fs.readdir(path.join(root, folder), { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      listed++;
      if (entry.name.startsWith('.')) continue;
      const relative = folder === '' ? entry.name : `${folder}/${entry.name}`;
      if (entry.isDirectory()) folders.push(relative);
      else if (entry.isFile()) files.push(relative);
    }
  }
  return files;
}
