import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The program that shows the editor as an app window. */
export type WindowProgram =
  | { readonly kind: 'electron'; readonly command: string; readonly main: string }
  | { readonly kind: 'chromium'; readonly command: string };

/** The Electron shell's main process, built beside the CLI (`core/dist/shell/electron/main.js`). */
const ELECTRON_MAIN = fileURLToPath(new URL('../shell/electron/main.js', import.meta.url));

/** Chromium when no Electron, in this order (DESIGN §7), then by name on PATH. */
const CHROMIUM_PATHS = ['/usr/bin/chromium'];
const CHROMIUM_NAMES = ['chromium', 'google-chrome'];

/**
 * Electron when it is installed (`VMARK_ELECTRON`, or the optional `electron`
 * package with its binary) and the shell is built; else Chromium
 * (`VMARK_CHROMIUM`, `/usr/bin/chromium`, `chromium` or `google-chrome` on
 * PATH). A variable that names something unusable is an error, not a hint to
 * look elsewhere: the person asked for that program.
 */
export async function findWindowProgram(
  options: { env?: NodeJS.ProcessEnv; electron?: boolean } = {},
): Promise<WindowProgram> {
  const env = options.env ?? process.env;
  if (options.electron !== false) {
    const electron = await findElectron(env);
    if (electron) return electron;
  }
  if (env.VMARK_CHROMIUM) {
    if (await isExecutable(env.VMARK_CHROMIUM)) return { kind: 'chromium', command: env.VMARK_CHROMIUM };
    throw new Error(`VMARK_CHROMIUM names ${env.VMARK_CHROMIUM}, which is not an executable file`);
  }
  const onPath = (env.PATH ?? '')
    .split(path.delimiter)
    .filter((dir) => path.isAbsolute(dir))
    .flatMap((dir) => CHROMIUM_NAMES.map((name) => path.join(dir, name)));
  for (const candidate of [...CHROMIUM_PATHS, ...onPath]) {
    if (await isExecutable(candidate)) return { kind: 'chromium', command: candidate };
  }
  throw new Error(
    'no program to show the editor in: neither Electron (VMARK_ELECTRON, or the electron package with its ' +
      'binary) nor Chromium (VMARK_CHROMIUM, /usr/bin/chromium, chromium or google-chrome on PATH) was ' +
      'found. Install one of them, or run `vmark serve` and open its URL in any browser.',
  );
}

async function findElectron(env: NodeJS.ProcessEnv): Promise<WindowProgram | null> {
  let command: string | undefined = env.VMARK_ELECTRON;
  if (command) {
    if (!(await isExecutable(command)))
      throw new Error(`VMARK_ELECTRON names ${command}, which is not an executable file`);
  } else {
    try {
      // The package exports its binary's path, and throws when the binary was never downloaded.
      const exported: unknown = createRequire(import.meta.url)('electron');
      command = typeof exported === 'string' ? exported : undefined;
    } catch {
      return null;
    }
    if (command === undefined || !(await isExecutable(command))) return null;
  }
  if (!(await isExecutable(ELECTRON_MAIN, constants.R_OK))) {
    if (env.VMARK_ELECTRON)
      throw new Error(`the Electron shell is not built (${ELECTRON_MAIN}); run npm run build`);
    return null;
  }
  return { kind: 'electron', command, main: ELECTRON_MAIN };
}

/** A regular file (links followed) that this user may run (or, with R_OK, read). */
async function isExecutable(file: string, mode = constants.X_OK): Promise<boolean> {
  try {
    await access(file, mode);
    return (await stat(file)).isFile();
  } catch {
    return false;
  }
}

export interface ChromiumWindowOptions {
  /** The private page that forwards to the editor (the token stays off the command line). */
  readonly openerUrl: string;
  /** The window's own profile, under VMARK_HOME. */
  readonly profileDir: string;
  /** This process runs as root (uid 0). */
  readonly asRoot: boolean;
}

/**
 * Chromium's command line for the editor's app window. Chromium refuses to start as root with
 * its sandbox (it cannot drop root's rights inside it: https://crbug.com/638180), so as root —
 * a container, a CI machine — it gets `--no-sandbox`, which the caller tells the person about.
 */
export function chromiumArguments(options: ChromiumWindowOptions): string[] {
  return [
    `--app=${options.openerUrl}`,
    `--user-data-dir=${options.profileDir}`,
    '--no-first-run',
    '--no-default-browser-check',
    ...(options.asRoot ? ['--no-sandbox'] : []),
  ];
}
