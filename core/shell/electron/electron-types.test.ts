import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const config = fileURLToPath(new URL('./tsconfig.without-electron.json', import.meta.url));

/*
 * `electron` is optional: where its binary cannot be downloaded, `npm ci` leaves the whole package
 * out, declarations included. The shell must still type-check (and so lint) then: against the few
 * APIs electron-fallback.d.ts declares, with the package's own declarations out of sight.
 */
it('type-checks the Electron shell without the electron package', () => {
  const run = spawnSync(process.execPath, [tsc, '-p', config, '--noEmit', '--listFiles'], {
    encoding: 'utf8',
  });
  expect(run.status, run.stdout).toBe(0);
  const files = run.stdout.split('\n');
  expect(files.filter((f) => f.includes('/node_modules/electron/'))).toEqual([]);
  expect(files.some((f) => f.endsWith('/core/shell/electron/main.ts'))).toBe(true);
});
