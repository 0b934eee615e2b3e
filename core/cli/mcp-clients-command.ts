import { CommandLineError } from '@vmark/sdk';
import { ClientCredentials } from '../principals/client-credentials.js';
import { vmarkHome } from './environment.js';
import { launchCommand } from './launch-command.js';

/**
 * `vmark mcp install|clients|uninstall`: the per-client credentials that name an MCP client
 * to the host. A credential is shown once, inside the config snippet the person pastes
 * into the client; only its digest is kept.
 */
export async function mcpClientsCommand(
  verb: 'install' | 'clients' | 'uninstall',
  values: { readonly client?: string | undefined; readonly json?: boolean | undefined },
): Promise<number> {
  const credentials = new ClientCredentials(vmarkHome());
  if (verb === 'clients') {
    const providers = credentials.list().map(({ id, created }) => ({ client: id, created }));
    process.stdout.write(
      values.json
        ? JSON.stringify(providers, null, 2) + '\n'
        : providers.map((p) => `${p.client}  (since ${p.created})\n`).join('') || 'no clients installed\n',
    );
    return 0;
  }
  // The command line requires --client for install and uninstall.
  const client = values.client!;
  if (verb === 'uninstall') {
    if (!(await credentials.revoke(client))) {
      process.stderr.write(`vmark: no client named "${client}" (see vmark mcp clients)\n`);
      return 1;
    }
    process.stdout.write(`${client}: credential revoked\n`);
    return 0;
  }
  let token: string;
  try {
    token = await credentials.mint(client);
  } catch (error) {
    if (error instanceof RangeError) throw new CommandLineError(error.message);
    throw error;
  }
  const { command, args } = await launchCommand();
  const snippet = {
    mcpServers: {
      vmark: {
        command,
        args: [...args, 'mcp'],
        env: { VMARK_HOME: vmarkHome(), VMARK_MCP_TOKEN: token },
      },
    },
  };
  process.stdout.write(JSON.stringify(snippet, null, 2) + '\n');
  if (!values.json)
    process.stderr.write(
      `vmark: credential for "${client}" minted. Add the server above to ${client}'s MCP config; ` +
        'the token is not shown again (run install again to replace it).' +
        (command === 'vmark'
          ? '\n'
          : ' vmark is not on PATH, so the entry starts this Node and this CLI by their absolute paths;' +
            ' run install again if either moves.\n'),
    );
  return 0;
}
