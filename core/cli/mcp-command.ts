import { CommandLineError, runCommandLine } from '@vmark/sdk';
import { ApprovalBroker } from '../approvals/approval-broker.js';
import { startControlServer } from '../control/control-server.js';
import { listRunningHosts } from '../control/host-file.js';
import { serveStdio } from '../mcp/stdio-endpoint.js';
import { ClientCredentials } from '../principals/client-credentials.js';
import { MCP_COMMAND_LINE } from './command-lines.js';
import { vmarkHome } from './environment.js';
import { parsePort } from './port-option.js';
import { startHost } from './start-host.js';
import { terminalIo } from './terminal-io.js';

export function mcpCommand(argv: string[]): Promise<number> {
  return runCommandLine(MCP_COMMAND_LINE, argv, terminalIo(), async ({ verb, values }) => {
    if (verb === 'install' || verb === 'clients' || verb === 'uninstall')
      return (await import('./mcp-clients-command.js')).mcpClientsCommand(verb, values);
    if (values.port !== undefined && !values.http)
      throw new CommandLineError('option --port needs --http for vmark mcp');
    const port = parsePort(values.port);
    return values.http ? serveMcpHttp(values, port) : serveMcpStdio(values);
  });
}

interface McpOptions {
  readonly workspace?: string | undefined;
  readonly open?: string[] | undefined;
}

/** What an AI client starts: MCP on stdin/stdout, attached to a running editor when there is one. */
async function serveMcpStdio(options: McpOptions): Promise<number> {
  const home = vmarkHome();
  const credential = process.env.VMARK_MCP_TOKEN;
  warnOfUnknownCredential(home, credential);
  // With an editor (`vmark serve`) running on this VMARK_HOME, the client edits what the person sees.
  // Its module is loaded only then: it brings the HTTP client stack.
  if (process.env.VMARK_NO_ATTACH !== '1' && (await listRunningHosts(home)).some((h) => h.serve)) {
    const { attachStdio, AttachRefused } = await import('../mcp/attach-stdio.js');
    const log = (line: string) => void process.stderr.write(`${line}\n`);
    try {
      const end = await attachStdio({
        home,
        workspace: options.workspace,
        open: options.open,
        credential,
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
  const running = await startMcpHost(home, options);
  await serveStdio(running.host);
  await running.stop();
  return 0;
}

/** `vmark mcp --http`: Streamable HTTP on 127.0.0.1, until a signal stops it. */
async function serveMcpHttp(options: McpOptions, port: number): Promise<number> {
  const running = await startMcpHost(vmarkHome(), options);
  // Imported only when asked for: the HTTP stack is a third of the stdio start-up time.
  const { serveHttp } = await import('../mcp/http-endpoint.js');
  let endpoint;
  try {
    endpoint = await serveHttp(running.host, { port, token: process.env.VMARK_HTTP_TOKEN });
  } catch (error) {
    // A port in use, say: nothing of this host may stay behind (its host file least of all).
    await running.stop();
    throw error;
  }
  process.stdout.write(JSON.stringify({ url: endpoint.url, token: endpoint.token }) + '\n');
  await new Promise(() => undefined);
  return 0;
}

/** A host of this process's own, reachable by a person at a terminal through its control channel. */
async function startMcpHost(home: string, options: McpOptions) {
  const host = await startHost({ workspace: options.workspace, open: options.open, watchPluginState: true });
  // `vmark approvals` reaches this host through its control channel. Not awaited here: MCP is
  // served meanwhile, so the channel costs the client no start-up time.
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
  return { host, stop };
}

/**
 * A credential that names no installed client (mistyped, revoked, from another VMARK_HOME) is
 * not refused: the session goes on as an anonymous client, as one without a credential. But the
 * person who configured it is told, on stderr, where MCP clients show a server's log.
 */
function warnOfUnknownCredential(home: string, credential: string | undefined): void {
  if (credential === undefined || credential === '') return;
  if (new ClientCredentials(home).identify(credential) !== null) return;
  process.stderr.write(
    `vmark: VMARK_MCP_TOKEN matches no installed client of VMARK_HOME=${home} (see vmark mcp clients); ` +
      'this session goes on as an anonymous client, which cannot use delegated grants\n',
  );
}
