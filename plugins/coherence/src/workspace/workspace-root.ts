/**
 * The `workspace_root` argument of the coherence tools (vmark-notes §7.6): an absolute path to an
 * existing folder, refused with the original's plain-string messages — and, as the newest
 * original does, only a workspace this host has open, so a client cannot make the host write a
 * ledger into any folder it names.
 */
import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { ArgumentError, z } from '@vmark/sdk';

export const workspaceRootArg = z.string({
  error: 'workspace_root (string) is required — the absolute path of the workspace to query',
});

export async function checkWorkspaceRoot(input: string, openRoots: readonly string[]): Promise<string> {
  if (!path.isAbsolute(input) || input.includes('\0'))
    throw new ArgumentError(`workspace_root must be an absolute path, got: ${input}`);
  let canonical: string;
  try {
    canonical = await realpath(input);
    if (!(await stat(canonical)).isDirectory()) throw new Error('not a directory');
  } catch {
    throw new ArgumentError(`workspace_root is not an accessible directory: ${input}`);
  }
  if (!openRoots.includes(canonical))
    throw new ArgumentError(
      `workspace_root is not a workspace open in VMark: ${input} — open it with workspace.open_workspace first`,
    );
  return canonical;
}
