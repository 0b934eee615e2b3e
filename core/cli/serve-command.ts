import { fileURLToPath } from 'node:url';
import { runCommandLine } from '@vmark/sdk';
import { ApprovalBroker } from '../approvals/approval-broker.js';
import { newBearerToken } from '../control/bearer-token.js';
import { startControlServer } from '../control/control-server.js';
import { HostVault } from '../vault/host-vault.js';
import { startUiServer } from '../shell/server/ui-server.js';
import { SERVE_COMMAND_LINE } from './command-lines.js';
import { vmarkHome } from './environment.js';
import { parsePort } from './port-option.js';
import { startHost } from './start-host.js';
import { terminalIo } from './terminal-io.js';

/** The renderer's build, beside the CLI: `core/dist/renderer/`, from `core/dist/cli/` and `core/dist/bundle/`. */
const RENDERER_DIR = fileURLToPath(new URL('../renderer/', import.meta.url));

export interface EditorHostOptions {
  readonly workspace?: string | undefined;
  readonly open?: readonly string[] | undefined;
  /** 0 picks a free port. */
  readonly port: number;
}

export interface EditorHost {
  /** The page, token included. */
  readonly url: string;
  /** MCP at `/mcp` of the same port, behind the same token. */
  readonly mcpUrl: string;
  readonly token: string;
  stop(): Promise<void>;
}

/**
 * The host with its editor UI (and MCP at `/mcp`) on 127.0.0.1, announced in
 * its host file so that `vmark mcp` and `vmark app` of the same `VMARK_HOME`
 * attach to it instead of starting hosts of their own.
 */
export async function startEditorHost(options: EditorHostOptions): Promise<EditorHost> {
  const host = await startHost({ workspace: options.workspace, open: options.open, watchPluginState: true });
  const token = newBearerToken();
  let ui: Awaited<ReturnType<typeof startUiServer>> | undefined;
  let control: Awaited<ReturnType<typeof startControlServer>> | undefined;
  const stop = async () => {
    // The host file first (inside control.close): nothing may attach to a host that is going away.
    await control?.close();
    await ui?.close();
    await host.dispose();
  };
  try {
    ui = await startUiServer(host, { port: options.port, token, assetsDir: RENDERER_DIR });
    control = await startControlServer(
      { approvals: host.container.get(ApprovalBroker) },
      {
        home: vmarkHome(),
        version: host.version,
        serve: {
          uiUrl: ui.url,
          mcpUrl: ui.mcpUrl,
          token,
          workspaceRoots: host.container.get(HostVault).roots(),
        },
      },
    );
  } catch (error) {
    await stop();
    throw error;
  }
  return { url: ui.url, mcpUrl: ui.mcpUrl, token, stop };
}

/** Resolves on the first SIGINT or SIGTERM, leaving no listener behind. */
export function untilSignalled(): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = () => {
      process.off('SIGINT', done);
      process.off('SIGTERM', done);
      resolve();
    };
    process.once('SIGINT', done);
    process.once('SIGTERM', done);
  });
}

/**
 * `vmark serve`: the editor host. The first stdout line is the page's URL with
 * the per-launch token; the second names the MCP endpoint on the same port,
 * which takes the same token as a bearer.
 */
export function serveCommand(argv: string[]): Promise<number> {
  return runCommandLine(SERVE_COMMAND_LINE, argv, terminalIo(), async ({ values }) => {
    const editor = await startEditorHost({
      workspace: values.workspace,
      open: values.open,
      port: parsePort(values.port),
    });
    process.stdout.write(`${editor.url}\n`);
    process.stdout.write(
      `MCP (Streamable HTTP): ${editor.mcpUrl} with header "Authorization: Bearer ${editor.token}"` +
        ' (or `vmark mcp` with the same VMARK_HOME, which attaches to this host)\n',
    );
    await untilSignalled();
    await editor.stop();
    return 0;
  });
}
