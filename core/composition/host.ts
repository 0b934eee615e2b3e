import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { ToolDefinition } from '@vmark/sdk';
import { HostInfoToken } from '@vmark/sdk';
import { Container } from 'inversify';
import { hostModule } from './host-module.js';
import { HostHooksToken } from '../tokens/host-tokens.js';
import { HostDocumentStore } from '../documents/document-store.js';
import { CheckpointRecorder } from '../history/checkpoint-recorder.js';
import { FolderWatcher } from '../documents/folder-watcher.js';
import type { HostOptions } from '../tokens/host-options.js';
import { LogHub } from '../log/log-hub.js';
import { createMcpSession } from '../mcp/mcp-session.js';
import { ToolRegistry } from '../plugins/tool-registry.js';
import { reportLargeWrites } from '../mcp/write-progress.js';
import type { PluginCandidate } from '../plugins/discovery.js';
import { PluginHost } from '../plugins/plugin-host.js';
import { ClientCredentials } from '../principals/client-credentials.js';
import { VMARK_VERSION } from '../tokens/version.js';
import { HostWorkbench } from '../workbench/workbench.js';
import { HostWorkspaceFiles } from '../workspace-files/host-workspace-files.js';

export interface Host {
  readonly container: Container;
  readonly plugins: PluginHost;
  readonly workbench: HostWorkbench;
  readonly version: string;
  tools(): ToolDefinition[];
  /** Per-client credentials (`vmark mcp install`): who a connection's token names. */
  readonly credentials: ClientCredentials;
  /**
   * A new MCP server for one connection; dispose it when the connection ends. `credential`
   * is the client's `VMARK_MCP_TOKEN`, when it presented one.
   */
  createMcpSession(credential?: string): ReturnType<typeof createMcpSession>;
  dispose(): Promise<void>;
}

export interface CreateHostOptions extends Partial<HostOptions> {
  readonly home: string;
  /** Plugins handed over in memory instead of (or besides) discovered ones. */
  readonly extraPlugins?: readonly PluginCandidate[];
  /** The host serves the editor's UI (HostInfo.editor). */
  readonly editor?: boolean;
}

/** Builds a host, discovers and activates its plugins. The same host serves stdio, HTTP and the UI. */
export async function createHost(options: CreateHostOptions): Promise<Host> {
  const hostOptions: HostOptions = {
    home: path.resolve(options.home),
    builtinPluginDirs: options.builtinPluginDirs ?? [],
    userPlugins: options.userPlugins ?? true,
    watchPluginState: options.watchPluginState ?? false,
  };
  await mkdir(hostOptions.home, { recursive: true, mode: 0o700 });
  const container = new Container();
  container.load(
    hostModule(container, hostOptions, {
      version: VMARK_VERSION,
      home: hostOptions.home,
      editor: options.editor ?? false,
    }),
  );

  // Every AI edit is recorded from the first one on, so the recorder starts before any plugin.
  const recorder = container.get(CheckpointRecorder);
  recorder.start();
  const hooks = container.get(HostHooksToken);
  const writeProgress = reportLargeWrites(hooks);
  const log = container.get(LogHub);
  const plugins = container.get(PluginHost);
  const roots = [
    ...hostOptions.builtinPluginDirs.map((dir) => ({ dir, source: 'builtin' as const })),
    ...(hostOptions.userPlugins
      ? [
          { dir: path.join(hostOptions.home, 'plugins'), source: 'user' as const },
          // `npm install --prefix "$VMARK_HOME" <package>` puts npm plugins here (ADR 20).
          { dir: path.join(hostOptions.home, 'node_modules'), source: 'npm' as const },
        ]
      : []),
  ];
  await plugins.discover(roots, options.extraPlugins ?? []);
  log.started();

  const registry = container.get(ToolRegistry);
  const credentials = new ClientCredentials(hostOptions.home);
  let connections = 0;
  return {
    container,
    plugins,
    workbench: container.get(HostWorkbench),
    version: container.get(HostInfoToken).version,
    tools: () => registry.list().map((entry) => entry.tool),
    credentials,
    createMcpSession: (credential) =>
      createMcpSession({
        version: VMARK_VERSION,
        registry,
        hooks,
        log,
        connectionId: `conn-${++connections}`,
        principal: () => credentials.identify(credential),
      }),
    async dispose() {
      await plugins.dispose();
      writeProgress.dispose();
      await recorder.flush();
      recorder.dispose();
      container.get(HostDocumentStore).dispose();
      container.get(HostWorkspaceFiles).dispose();
      container.get(FolderWatcher).dispose();
    },
  };
}
