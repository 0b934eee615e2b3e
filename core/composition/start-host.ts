import path from 'node:path';
import { createHost, type Host } from './host.js';
import { BUILTIN_PLUGINS_DIR, vmarkHome } from './environment.js';

export interface StartOptions {
  readonly workspace?: string;
  readonly open?: readonly string[];
  /** Follow `vmark plugins enable|disable` run from another terminal. */
  readonly watchPluginState?: boolean;
  /** The host serves the editor's UI (HostInfo.editor). */
  readonly editor?: boolean;
}

/**
 * A host with the built-in and user plugins. The folder and files a person named
 * on the command line open without a prompt; with a workspace, files outside it are refused.
 */
export async function startHost(options: StartOptions = {}): Promise<Host> {
  const host = await createHost({
    home: vmarkHome(),
    builtinPluginDirs: [BUILTIN_PLUGINS_DIR],
    watchPluginState: options.watchPluginState ?? false,
    editor: options.editor ?? false,
  });
  try {
    // Paths typed in a shell are relative to its current folder, not to the workspace.
    if (options.workspace !== undefined) await host.workbench.openWorkspace(path.resolve(options.workspace));
    for (const file of options.open ?? []) {
      await host.workbench.openFile(path.resolve(file), { consented: options.workspace === undefined });
    }
  } catch (error) {
    await host.dispose();
    throw error;
  }
  return host;
}
