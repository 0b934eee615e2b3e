import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { ApprovalBroker } from '../approvals/approval-broker.js';
import { newBearerToken } from '../control/bearer-token.js';
import { startControlServer } from '../control/control-server.js';
import { HostVault } from '../vault/host-vault.js';
import { startUiServer } from '../shell/server/ui-server.js';
import { vmarkHome } from './environment.js';
import { startHost } from './start-host.js';
import { UsageError } from './usage.js';

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

/** `--port N`: 0–65535, 0 (the default) picking a free one. */
export function parsePort(value: string | undefined): number {
  if (value === undefined) return 0;
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65535) throw new UsageError(`--port must be 0–65535, got ${value}`);
  return port;
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
export async function serveCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      workspace: { type: 'string' },
      open: { type: 'string', multiple: true },
      port: { type: 'string' },
    },
    strict: true,
  });
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
}
