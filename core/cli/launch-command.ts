import { constants } from 'node:fs';
import { access, realpath } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** This CLI's entry point, beside this module: `core/dist/bundle/main.js` (or `core/dist/cli/main.js`). */
const CLI_ENTRY = fileURLToPath(new URL('./main.js', import.meta.url));

export interface LaunchCommand {
  readonly command: string;
  /** The arguments that start this CLI; the caller appends the command's own (`mcp`). */
  readonly args: readonly string[];
}

/**
 * How another program (an MCP client) starts this very vmark: `vmark` when the `vmark` that
 * PATH finds is this CLI, else this Node and this CLI by absolute path — from a checkout,
 * `vmark` is usually on no PATH at all, and a client told to run it fails (`spawn vmark ENOENT`).
 */
export async function launchCommand(env: NodeJS.ProcessEnv = process.env): Promise<LaunchCommand> {
  const cli = await realpath(CLI_ENTRY);
  // Windows runs npm's `vmark.cmd` shim, which cannot be traced back to a file: name node and the CLI.
  if (process.platform !== 'win32' && (await vmarkOnPath(env)) === cli) return { command: 'vmark', args: [] };
  return { command: process.execPath, args: [cli] };
}

/** The file the first runnable `vmark` on PATH is, links followed; null when there is none. */
async function vmarkOnPath(env: NodeJS.ProcessEnv): Promise<string | null> {
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    // A relative entry means something else in the client's own working folder, and a project's
    // node_modules/.bin is on PATH only while npm or npx runs something (`npx vmark`), not for a client.
    if (!path.isAbsolute(dir) || isProjectBin(dir)) continue;
    const candidate = path.join(dir, 'vmark');
    try {
      await access(candidate, constants.X_OK);
      return await realpath(candidate);
    } catch {
      continue;
    }
  }
  return null;
}

function isProjectBin(dir: string): boolean {
  const parts = path
    .normalize(dir)
    .split(path.sep)
    .filter((p) => p !== '');
  return parts.at(-1) === '.bin' && parts.at(-2) === 'node_modules';
}
