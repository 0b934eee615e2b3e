import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { delimiter, isAbsolute, join } from 'node:path';

/** The environment variable naming an actionlint executable to use instead of the one on PATH. */
export const ACTIONLINT_ENV = 'VMARK_ACTIONLINT';

export type BinaryLookup =
  | { kind: 'found'; path: string; source: 'env' | 'PATH' }
  /** VMARK_ACTIONLINT is set but unusable: reported, never silently replaced by another linter. */
  | { kind: 'misconfigured'; error: string }
  | { kind: 'absent' };

async function isExecutableFile(path: string): Promise<boolean> {
  try {
    if (!(await stat(path)).isFile()) return false;
    await access(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Windows environment blocks spell PATH in any case (`Path` is common); copies of them keep it. */
function pathVariable(env: NodeJS.ProcessEnv, platform: NodeJS.Platform): string {
  if (platform !== 'win32') return env.PATH ?? '';
  const key = Object.keys(env).find((name) => name.toUpperCase() === 'PATH');
  return key === undefined ? '' : (env[key] ?? '');
}

/**
 * Finds the actionlint executable: `VMARK_ACTIONLINT` (an absolute path) first, then PATH. Only a
 * `.exe` counts on Windows, because `.cmd`/`.bat` shims can only be started through a shell and the
 * document must never pass through one.
 */
export async function findActionlintBinary(
  env: NodeJS.ProcessEnv,
  platform: NodeJS.Platform,
): Promise<BinaryLookup> {
  const override = env[ACTIONLINT_ENV];
  if (override !== undefined && override !== '') {
    if (!isAbsolute(override)) {
      return { kind: 'misconfigured', error: `${ACTIONLINT_ENV} must be an absolute path, got: ${override}` };
    }
    if (!(await isExecutableFile(override))) {
      return { kind: 'misconfigured', error: `${ACTIONLINT_ENV} is not an executable file: ${override}` };
    }
    return { kind: 'found', path: override, source: 'env' };
  }
  const name = platform === 'win32' ? 'actionlint.exe' : 'actionlint';
  for (const dir of pathVariable(env, platform).split(platform === 'win32' ? ';' : delimiter)) {
    // Relative entries (`.`, or the empty entry of `a::b`) would run whatever `actionlint` sits in the
    // editor's current directory, which may be the very repository being edited.
    if (!isAbsolute(dir)) continue;
    const candidate = join(dir, name);
    if (await isExecutableFile(candidate)) return { kind: 'found', path: candidate, source: 'PATH' };
  }
  return { kind: 'absent' };
}
