import { existsSync } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { register } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

export type PluginSource = 'builtin' | 'user' | 'inline';

/** A folder (or in-memory module) that claims to be a plugin, before its manifest is checked. */
export interface PluginCandidate {
  readonly source: PluginSource;
  /** The plugin folder; null for a plugin handed to the host in memory (tests). */
  readonly dir: string | null;
  /** The parsed `manifest.json`; undefined when it could not be read (see `readError`). */
  readonly raw: unknown;
  readonly readError?: string;
  /** Loads the module named by the manifest's `main` and returns its default export. */
  load(main: string): Promise<unknown>;
}

export interface PluginRoot {
  readonly dir: string;
  readonly source: PluginSource;
}

let sdkHookRegistered = false;

/**
 * Lets plugins outside the host's package tree import `@vmark/sdk` (see
 * sdk-resolve-hook.ts). Once per process, and only when running from the build:
 * under the test runner, which runs the TypeScript sources, its aliases do this.
 */
function registerSdkResolution(): void {
  const hook = new URL('./sdk-resolve-hook.js', import.meta.url);
  if (sdkHookRegistered || !existsSync(hook)) return;
  sdkHookRegistered = true;
  register(hook, { data: { hostURL: import.meta.url } });
}

/** Every `<root>/<folder>/manifest.json`, in a stable order. Missing roots are simply empty. */
export async function discoverPlugins(roots: readonly PluginRoot[]): Promise<PluginCandidate[]> {
  const found: PluginCandidate[] = [];
  for (const root of roots) {
    const names = await readdir(root.dir).catch(() => [] as string[]);
    for (const name of names.sort()) {
      const dir = path.join(root.dir, name);
      if (!(await stat(dir).catch(() => null))?.isDirectory()) continue;
      const manifestPath = path.join(dir, 'manifest.json');
      const text = await readFile(manifestPath, 'utf8').catch(() => null);
      if (text === null) continue;
      found.push(candidateFromFolder(root.source, dir, text));
    }
  }
  return found;
}

function candidateFromFolder(source: PluginSource, dir: string, manifestText: string): PluginCandidate {
  const load = async (main: string) => {
    // Built-in plugins resolve the SDK through the host's node_modules; the hook costs a loader thread.
    if (source !== 'builtin') registerSdkResolution();
    const module = (await import(pathToFileURL(path.resolve(dir, main)).href)) as { default?: unknown };
    return module.default;
  };
  try {
    return { source, dir, raw: JSON.parse(manifestText) as unknown, load };
  } catch (error) {
    return {
      source,
      dir,
      raw: undefined,
      readError: `manifest.json is not valid JSON: ${String(error)}`,
      load,
    };
  }
}
