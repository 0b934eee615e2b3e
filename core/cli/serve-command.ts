import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { ApprovalBroker } from '../approvals/approval-broker.js';
import { newBearerToken } from '../control/bearer-token.js';
import { startControlServer } from '../control/control-server.js';
import { serveHttp } from '../mcp/http-endpoint.js';
import { startUiServer } from '../shell/server/ui-server.js';
import { vmarkHome } from './environment.js';
import { startHost } from './start-host.js';
import { UsageError } from './usage.js';

/** The renderer's build, beside the CLI: `core/dist/renderer/`, from `core/dist/cli/` and `core/dist/bundle/`. */
const RENDERER_DIR = fileURLToPath(new URL('../renderer/', import.meta.url));

/**
 * `vmark serve`: the host with its editor UI on 127.0.0.1. The first stdout
 * line is the page's URL with the per-launch token; the second names the MCP
 * endpoint an AI client may use on the same host, with the same token.
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
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!/^\d+$/.test(values.port ?? '0') || port > 65535)
    throw new UsageError(`--port must be 0–65535, got ${values.port}`);

  const host = await startHost({ workspace: values.workspace, open: values.open, watchPluginState: true });
  const token = newBearerToken();
  const control = startControlServer(
    { approvals: host.container.get(ApprovalBroker) },
    { home: vmarkHome(), version: host.version },
  );
  let ui: Awaited<ReturnType<typeof startUiServer>> | undefined;
  let mcp: Awaited<ReturnType<typeof serveHttp>> | undefined;
  const stop = async () => {
    await ui?.close();
    await mcp?.close();
    await (await control).close();
    await host.dispose();
  };
  try {
    ui = await startUiServer(host, { port, token, assetsDir: RENDERER_DIR });
    mcp = await serveHttp(host, { port: 0, token });
  } catch (error) {
    await stop();
    throw error;
  }
  process.stdout.write(`${ui.url}\n`);
  process.stdout.write(`MCP (Streamable HTTP): ${mcp.url} with header "Authorization: Bearer ${token}"\n`);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await stop();
  return 0;
}
