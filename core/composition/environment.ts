import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The app-data folder: `VMARK_HOME`, else the XDG data folder. Nothing is written anywhere else. */
export function vmarkHome(env: NodeJS.ProcessEnv = process.env): string {
  if (env.VMARK_HOME) return path.resolve(env.VMARK_HOME);
  const data = env.XDG_DATA_HOME || path.join(os.homedir(), '.local', 'share');
  return path.join(data, 'vmark');
}

/** The built-in plugins ship beside the host: `<repo>/plugins`, from `core/dist/composition/` (or the bundle beside it). */
export const BUILTIN_PLUGINS_DIR = fileURLToPath(new URL('../../../plugins/', import.meta.url));

/**
 * The renderer's build, `core/dist/renderer/`. Named here, at the depth of the CLI's bundle
 * (`core/dist/bundle/`), so that the bundle and the Electron shell's unbundled import agree.
 */
export const RENDERER_DIR = fileURLToPath(new URL('../renderer/', import.meta.url));
