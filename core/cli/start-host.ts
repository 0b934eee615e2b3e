import { createHost, type Host } from '../host.js';
import { BUILTIN_PLUGINS_DIR, vmarkHome } from './environment.js';

export interface StartOptions {
  readonly workspace?: string;
  readonly open?: readonly string[];
  /** Follow `vmark plugins enable|disable` run from another terminal. */
  readonly watchPluginState?: boolean;
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
  });
  try {
    if (options.workspace !== undefined) await host.workbench.openWorkspace(options.workspace);
    for (const file of options.open ?? []) {
      await host.workbench.openFile(file, { consented: options.workspace === undefined });
    }
  } catch (error) {
    await host.dispose();
    throw error;
  }
  return host;
}
