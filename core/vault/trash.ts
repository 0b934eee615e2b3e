/**
 * Deleting from the file list moves the entry to a trash, never removes it (issue 19, ADR 70):
 *
 * - the **system trash** where there is one vmark can use without native code: the freedesktop.org
 *   home trash (`$XDG_DATA_HOME/Trash`, else `~/.local/share/Trash`) on Linux and the BSDs, when it
 *   is on the same file system as the entry (a rename; the spec's per-mount `.Trash-$uid` folders
 *   are not used). The `.trashinfo` is created first and exclusively, which reserves the name, as
 *   the spec asks; the desktop's file manager lists and restores it;
 * - else a **`.trash/` folder at the workspace's root**, as Obsidian does (macOS and Windows, whose
 *   trashes need their native APIs, and a vault on another disk than the home trash).
 *
 * Either way nothing in the trash is replaced: a taken name gets a number.
 */
import { open, lstat, mkdir, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { errorCode } from '@vmark/sdk';
import { moveNoReplace } from './move-entry.js';

export const WORKSPACE_TRASH = '.trash';

/** Where an entry went: back to `original` with `restoreFromTrash`. */
export interface Trashed {
  readonly original: string;
  readonly trashed: string;
  readonly where: 'system' | 'workspace';
  /** The system trash's `.trashinfo`, removed on a restore. */
  readonly info: string | null;
}

/** The freedesktop home trash for this environment, or null where vmark does not use a system trash. */
export function systemTrashFolder(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): string | null {
  if (platform === 'darwin' || platform === 'win32') return null;
  const data = env.XDG_DATA_HOME && path.isAbsolute(env.XDG_DATA_HOME) ? env.XDG_DATA_HOME : null;
  return path.join(data ?? path.join(os.homedir(), '.local', 'share'), 'Trash');
}

/**
 * Moves `entry` (canonical, inside `root`) to the system trash `systemTrash` when it can, else to
 * `root/.trash/`.
 */
export async function moveToTrash(entry: string, root: string, systemTrash: string | null): Promise<Trashed> {
  if (systemTrash !== null) {
    const done = await toSystemTrash(entry, systemTrash).catch(() => null);
    if (done !== null) return done;
  }
  const folder = path.join(root, WORKSPACE_TRASH);
  await mkdir(folder, { recursive: true });
  for (let n = 1; ; n++) {
    const trashed = path.join(folder, numbered(path.basename(entry), n));
    try {
      await moveNoReplace(entry, trashed);
      return { original: entry, trashed, where: 'workspace', info: null };
    } catch (error) {
      if (n >= 1000 || (await lstat(trashed).catch(() => null)) === null) throw error;
    }
  }
}

async function toSystemTrash(entry: string, trash: string): Promise<Trashed | null> {
  const files = path.join(trash, 'files');
  const infos = path.join(trash, 'info');
  await mkdir(files, { recursive: true, mode: 0o700 });
  await mkdir(infos, { recursive: true, mode: 0o700 });
  // Only a rename: a copy across file systems is not what a delete of a large folder should do.
  if ((await stat(entry)).dev !== (await stat(files)).dev) return null;
  for (let n = 1; n < 1000; n++) {
    const name = numbered(path.basename(entry), n);
    const info = path.join(infos, `${name}.trashinfo`);
    const handle = await open(info, 'wx', 0o600).catch((error: unknown) => {
      if (errorCode(error) === 'EEXIST') return null;
      throw error;
    });
    if (handle === null) continue;
    try {
      await handle.writeFile(trashInfo(entry, new Date()));
    } finally {
      await handle.close();
    }
    const trashed = path.join(files, name);
    try {
      await moveNoReplace(entry, trashed);
    } catch (error) {
      await rm(info, { force: true });
      if ((await lstat(trashed).catch(() => null)) !== null) continue;
      throw error;
    }
    return { original: entry, trashed, where: 'system', info };
  }
  return null;
}

/** Puts a trashed entry back where it was; refused (nothing replaced) when that name is taken now. */
export async function restoreFromTrash(trashed: Trashed): Promise<void> {
  await mkdir(path.dirname(trashed.original), { recursive: true });
  await moveNoReplace(trashed.trashed, trashed.original);
  if (trashed.info !== null) await rm(trashed.info, { force: true });
}

/** `name`, then `name 2`, `name 3`, … with the number before the extension. */
export function numbered(name: string, n: number, word = ''): string {
  if (n === 1 && word === '') return name;
  const dot = name.lastIndexOf('.');
  const [stem, extension] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
  const suffix = [word, n === 1 ? '' : String(n)].filter((part) => part !== '').join(' ');
  return `${stem} ${suffix}${extension}`;
}

/** The spec's `.trashinfo`: the original path percent-encoded as a URL path, the local time. */
function trashInfo(original: string, at: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  const date =
    `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}` +
    `T${pad(at.getHours())}:${pad(at.getMinutes())}:${pad(at.getSeconds())}`;
  const encoded = original.split('/').map(encodeURIComponent).join('/');
  return `[Trash Info]\nPath=${encoded}\nDeletionDate=${date}\n`;
}
