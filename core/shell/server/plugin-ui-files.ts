import { readFile, realpath } from 'node:fs/promises';
import path from 'node:path';
import type { PanelContribution, ViewContribution } from '../../plugins/manifest.js';

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  // A view's own fonts (KaTeX's, ADR 73): the page loads no font from anywhere else.
  '.woff2': 'font/woff2',
};

/** `/plugins/<plugin-id>/ui/<path>`, captured raw: the path is checked segment by segment below. */
const PLUGIN_UI_URL = /^\/plugins\/([a-z0-9-]+)\/ui\/(.+)$/;

/** A plain file or folder name: no `.` or `..`, no `%`-escapes, no separators. */
const SEGMENT = /^[A-Za-z0-9_-][A-Za-z0-9_.-]*$/;

export interface PluginUiFile {
  readonly body: Buffer;
  readonly type: string;
}

/** The URL path of a panel's module: its manifest `module`, or `ui/<id>.js`. */
export function panelModulePath(pluginId: string, panel: PanelContribution): string {
  return `/plugins/${pluginId}/${panel.module ?? `ui/${panel.id}.js`}`;
}

/** The URL path of a kind view's module (ADR 35). */
export function viewModulePath(pluginId: string, view: ViewContribution): string {
  return `/plugins/${pluginId}/${view.module}`;
}

/** An active plugin with a `ui/` folder to serve: one that contributes panels or kind views. */
export interface PluginUiFolder {
  readonly pluginId: string;
  readonly dir: string;
}

export function isPluginUiPath(pathname: string): boolean {
  return pathname.startsWith('/plugins/');
}

/**
 * A file of an active plugin's `ui/` folder, or null (the caller answers 404
 * and says no more). Only scripts, styles and woff2 fonts; only plain names, so no `..`; and
 * the real path, symlinks followed, must still lie inside that `ui/` folder.
 */
export async function readPluginUiFile(
  pathname: string,
  folders: readonly PluginUiFolder[],
): Promise<PluginUiFile | null> {
  const match = PLUGIN_UI_URL.exec(pathname);
  if (!match) return null;
  const pluginId = match[1]!;
  const rest = match[2]!;
  const segments = rest.split('/');
  if (!segments.every((s) => SEGMENT.test(s))) return null;
  const type = TYPES[path.extname(rest)];
  // Only a plugin that runs and contributes panels or views has files to serve.
  const dir = folders.find((p) => p.pluginId === pluginId)?.dir;
  if (type === undefined || dir === undefined) return null;
  try {
    const uiDir = await realpath(path.join(dir, 'ui'));
    const file = await realpath(path.join(uiDir, ...segments));
    if (!file.startsWith(uiDir + path.sep)) return null;
    return { body: await readFile(file), type };
  } catch {
    return null;
  }
}
