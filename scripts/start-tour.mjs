#!/usr/bin/env node
/**
 * `npm start` (after the build): `vmark serve` on the README's tour vault, a copy of
 * examples/vault, so that the tour never edits the repository's tracked files.
 *
 *   node scripts/start-tour.mjs [--port N] [other vmark serve options]   (npm start -- --port N)
 *
 * The first start copies examples/vault into a new private folder under the OS temp folder and
 * records where in $VMARK_HOME/tour.json; later starts open that copy again, edits and all, while
 * it is there and still this user's alone, and make a fresh one otherwise (after a reboot cleared
 * the temp folder, or once you delete the copy). vmark serve's own first lines, the editor's
 * address and then the MCP endpoint, come first and unchanged; the line naming the copy follows.
 */
import { spawn } from 'node:child_process';
import { cp, lstat, mkdir, mkdtemp, readFile, realpath, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { vmarkHome } from '../core/dist/cli/environment.js';

const REPO = fileURLToPath(new URL('..', import.meta.url));
const EXAMPLE = path.join(REPO, 'examples', 'vault');
const CLI = path.join(REPO, 'core', 'dist', 'bundle', 'main.js');
const DEFAULT_PORT = '4680';

const home = vmarkHome();
const record = path.join(home, 'tour.json');
const extra = process.argv.slice(2);
const { vault, fresh } = await tourVault();
const port = extra.some((a) => a === '--port' || a.startsWith('--port=')) ? [] : ['--port', DEFAULT_PORT];

const child = spawn(
  process.execPath,
  [CLI, 'serve', ...port, '--workspace', vault, '--open', path.join(vault, 'Welcome.md'), ...extra],
  { stdio: ['inherit', 'pipe', 'inherit'] },
);
// The terminal's Ctrl+C reaches vmark serve itself, which keeps unsaved edits as it stops; passing
// it on as well would be a second one. Other signals, sent to this process alone, are passed on.
process.on('SIGINT', () => undefined);
for (const signal of ['SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));

let lines = 0;
createInterface({ input: child.stdout }).on('line', (line) => {
  process.stdout.write(`${line}\n`);
  if (++lines === 2) {
    process.stdout.write(
      `Tour vault: ${vault} (${fresh ? 'a fresh copy' : 'your copy'} of examples/vault; ` +
        'edits there leave the repository as it is, and a new copy is made once you delete it)\n',
    );
  }
});
child.on('exit', (code) => process.exit(code ?? 1));

/** The copy recorded in $VMARK_HOME/tour.json when it is still there and private; else a new copy. */
async function tourVault() {
  const kept = await recordedVault();
  if (kept !== null) return { vault: kept, fresh: false };
  // mkdtemp: a new folder of this user's alone (0700), never one someone prepared.
  const folder = await realpath(await mkdtemp(path.join(os.tmpdir(), 'vmark-tour-')));
  const copy = path.join(folder, 'vault');
  await cp(EXAMPLE, copy, { recursive: true });
  await mkdir(home, { recursive: true, mode: 0o700 });
  await writeFile(record, JSON.stringify({ vault: copy }) + '\n', { mode: 0o600 });
  return { vault: copy, fresh: true };
}

async function recordedVault() {
  let vault;
  try {
    vault = JSON.parse(await readFile(record, 'utf8')).vault;
  } catch {
    return null;
  }
  if (typeof vault !== 'string' || !path.isAbsolute(vault)) return null;
  // The temp folder is everyone's: a copy that is gone may have been replaced by someone else's.
  const folder = await lstat(path.dirname(vault)).catch(() => null);
  const copy = await lstat(vault).catch(() => null);
  const ours = (stat) =>
    stat !== null && stat.isDirectory() && (process.getuid === undefined || stat.uid === process.getuid());
  if (!ours(folder) || !ours(copy) || (folder.mode & 0o077) !== 0) return null;
  return vault;
}
