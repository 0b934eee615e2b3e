import { existsSync } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { register } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/** `npm`: a package in `$VMARK_HOME/node_modules` whose package.json carries the `vmark-plugin` keyword. */
export type PluginSource = 'builtin' | 'user' | 'npm' | 'inline';

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
  /** A folder of plugin folders; for `npm`, a node_modules folder. */
  readonly dir: string;
  readonly source: PluginSource;
}

/** The keyword that marks an npm package as a vmark plugin (DESIGN §3). */
export const NPM_PLUGIN_KEYWORD = 'vmark-plugin';

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

/**
 * Every `<root>/<folder>/manifest.json` (and `<root>/<group>/<folder>/manifest.json` for a folder
 * without one), in a stable order. Missing roots are simply empty.
 */
export async function discoverPlugins(roots: readonly PluginRoot[]): Promise<PluginCandidate[]> {
  const found: PluginCandidate[] = [];
  for (const root of roots) {
    if (root.source === 'npm') {
      found.push(...(await discoverNpmPlugins(root.dir)));
      continue;
    }
    for (const dir of await subfolders(root.dir)) {
      const text = await readManifest(dir);
      if (text !== null) {
        found.push(candidateFromFolder(root.source, dir, text));
        continue;
      }
      // A folder without a manifest may group plugins, one level deep (plugins/site-extractors/<id>/).
      for (const member of await subfolders(dir)) {
        const memberText = await readManifest(member);
        if (memberText !== null) found.push(candidateFromFolder(root.source, member, memberText));
      }
    }
  }
  return found;
}

function readManifest(dir: string): Promise<string | null> {
  return readFile(path.join(dir, 'manifest.json'), 'utf8').catch(() => null);
}

/**
 * The packages of a node_modules folder (scoped ones included) whose package.json
 * names the `vmark-plugin` keyword. Such a package holds its manifest.json at its
 * root, as a plugin folder does; one that lacks it is listed with the reason.
 */
async function discoverNpmPlugins(nodeModules: string): Promise<PluginCandidate[]> {
  const packages: string[] = [];
  for (const dir of await subfolders(nodeModules)) {
    const name = path.basename(dir);
    if (name.startsWith('.')) continue;
    if (name.startsWith('@')) packages.push(...(await subfolders(dir)));
    else packages.push(dir);
  }
  const found: PluginCandidate[] = [];
  for (const dir of packages) {
    if (!isVmarkPackage(await readFile(path.join(dir, 'package.json'), 'utf8').catch(() => null))) continue;
    const text = await readFile(path.join(dir, 'manifest.json'), 'utf8').catch(() => null);
    found.push(
      text === null
        ? {
            source: 'npm',
            dir,
            raw: undefined,
            readError: `the npm package carries the "${NPM_PLUGIN_KEYWORD}" keyword but has no manifest.json`,
            load: () => Promise.reject(new Error('no manifest.json')),
          }
        : candidateFromFolder('npm', dir, text),
    );
  }
  return found;
}

function isVmarkPackage(packageJson: string | null): boolean {
  if (packageJson === null) return false;
  try {
    const keywords = (JSON.parse(packageJson) as { keywords?: unknown }).keywords;
    return Array.isArray(keywords) && keywords.includes(NPM_PLUGIN_KEYWORD);
  } catch {
    // Not a package we can read: not ours to report.
    return false;
  }
}

/** The folders (symlinks to folders included, as npm links them) of `dir`, by name; none when it is missing. */
export async function subfolders(dir: string): Promise<string[]> {
  const names = await readdir(dir).catch(() => [] as string[]);
  const folders: string[] = [];
  for (const name of names.sort()) {
    const child = path.join(dir, name);
    if ((await stat(child).catch(() => null))?.isDirectory()) folders.push(child);
  }
  return folders;
}

function candidateFromFolder(source: PluginSource, dir: string, manifestText: string): PluginCandidate {
  const load = async (main: string) => {
    const url = pathToFileURL(path.resolve(dir, main));
    if (source !== 'builtin') {
      // Built-in plugins resolve the SDK through the host's node_modules; the hook costs a loader thread.
      registerSdkResolution();
      // Node keeps a module that threw by its URL: a user plugin fixed on disk is tried again afresh (ADR 27).
      const modified = (await stat(url).catch(() => null))?.mtimeMs;
      if (modified !== undefined) url.search = `v=${modified}`;
    }
    const module = (await import(url.href)) as { default?: unknown };
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
