/**
 * `npm run build`'s bundler step: the bundles of rolldown.config.mjs, through rolldown's API.
 * Its command line prints a table of every file it wrote whatever `--log-level` says, and
 * `npm start` promises that the editor's address is the first line vmark prints; the API
 * prints nothing but the bundler's warnings and errors (on stderr).
 *
 *   node scripts/bundle.mjs [--dry-run]
 *
 * `--dry-run` bundles in memory and writes nothing: a check that the bundles build (and that
 * building prints nothing), safe to run while other processes use the built CLI.
 */
import { chmod } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { build } from 'rolldown';

// The configuration names its files relative to the repository.
process.chdir(fileURLToPath(new URL('..', import.meta.url)));
const { default: configs } = await import('../rolldown.config.mjs');
const write = !process.argv.includes('--dry-run');
await build(configs.map((config) => ({ ...config, write })));
// The CLI is a program: a `vmark` on PATH that links to it (npm link) runs it as it is.
if (write) await chmod('core/dist/bundle/main.js', 0o755);
