import { parseArgs } from 'node:util';
import { ApprovalBroker } from '../approvals/approval-broker.js';
import { startControlServer } from '../control/control-server.js';
import { listRunningHosts } from '../control/host-file.js';
import { serveStdio } from '../mcp/stdio-endpoint.js';
import { vmarkHome } from './environment.js';
import { startHost } from './start-host.js';
import { UsageError } from './usage.js';

export async function mcpCommand(argv: string[]): Promise<number> {
  const [verb, ...rest] = argv;
  if (verb === 'install' || verb === 'clients' || verb === 'uninstall')
    return (await import('./mcp-clients-command.js')).mcpClientsCommand(verb, rest);
  const { values } = parseArgs({
    args: argv,
    options: {
      workspace: { type: 'string' },
      open: { type: 'string', multiple: true },
      http: { type: 'boolean' },
      port: { type: 'string' },
    },
    strict: true,
  });
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!/^\d+$/.test(values.port ?? '0') || port > 65535)
    throw new UsageError(`--port must be 0–65535, got ${values.port}`);
  if (values.port !== undefined && !values.http) throw new UsageError('--port only applies with --http');

  // With an editor (`vmark serve`) running on this VMARK_HOME, the client edits what the person sees.
  // Its module is loaded only then: it brings the HTTP client stack.
  const home = vmarkHome();
  if (
    !values.http &&
    process.env.VMARK_NO_ATTACH !== '1' &&
    (await listRunningHosts(home)).some((h) => h.serve)
  ) {
    const { attachStdio, AttachRefused } = await import('../mcp/attach-stdio.js');
    const log = (line: string) => void process.stderr.write(`${line}\n`);
    try {
      const end = await attachStdio({
        home,
        workspace: values.workspace,
        open: values.open,
        credential: process.env.VMARK_MCP_TOKEN,
        log,
      });
      if (end === 'host-gone') {
        log('vmark: the running editor this session was attached to has gone away; the MCP session ends');
        return 1;
      }
      if (end === 'client-closed') return 0;
    } catch (error) {
      if (!(error instanceof AttachRefused)) throw error;
      log(`vmark: ${error.message}`);
      return 2;
    }
  }

  const host = await startHost({ workspace: values.workspace, open: values.open, watchPluginState: true });
  // A person at a terminal reaches this host through its control channel (`vmark approvals`).
  // Not awaited here: MCP is served meanwhile, so the channel costs the client no start-up time.
  const control = startControlServer(
    { approvals: host.container.get(ApprovalBroker) },
    { home, version: host.version },
  );
  const stop = async () => {
    await (await control).close();
    await host.dispose();
  };
  const exit = () => void stop().finally(() => process.exit(0));
  process.once('SIGINT', exit);
  process.once('SIGTERM', exit);

  if (values.http) {
    // Imported only when asked for: the HTTP stack is a third of the stdio start-up time.
    const { serveHttp } = await import('../mcp/http-endpoint.js');
    const endpoint = await serveHttp(host, { port, token: process.env.VMARK_HTTP_TOKEN });
    process.stdout.write(JSON.stringify({ url: endpoint.url, token: endpoint.token }) + '\n');
    await new Promise(() => undefined);
  }
  await serveStdio(host);
  await stop();
  return 0;
}
