/**
 * `vmark coherence …`: what a person does at a terminal — grant and revoke delegations, and
 * look at a workspace's state. The workspace is the one named (`--workspace`, else the current
 * folder): the person typed it, so no open-workspace approval applies.
 */
import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import type { CliCommand, CommandIo, CommandValues } from '@vmark/sdk';
import { CommandLineError, defineCommandLine, runCommandLine } from '@vmark/sdk';
import { GrantRecordError, type GrantRecord } from '../delegation/grant-record.js';
import { DELEGABLE_SCOPES, type DelegableScope } from '../delegation/grants.js';
import { humanActorId } from '../delegation/human-actor.js';
import { CoherenceWorkspace } from '../workspace/coherence-workspace.js';
import { parseExpiry } from './expiry.js';
import { progressLines } from './progress-lines.js';

/** The command line `vmark coherence --help` shows and the parser accepts. */
export const COHERENCE_COMMAND_LINE = defineCommandLine({
  command: 'vmark coherence',
  options: {
    to: { type: 'string', value: 'CLIENT', description: 'an installed MCP client (vmark mcp clients)' },
    scope: {
      type: 'string',
      value: 'SCOPE[,SCOPE]',
      description: `what it may resolve: ${DELEGABLE_SCOPES.join(' or ')}`,
    },
    expires: {
      type: 'string',
      value: 'WHEN',
      description: 'when the grant ends (grants always do): 30m, 12h, 7d, 2w or an RFC 3339 date',
    },
    workspace: { type: 'string', value: 'DIR', description: 'the workspace; default the current folder' },
    json: { type: 'boolean', description: 'print JSON' },
  },
  forms: [
    {
      verb: 'delegate',
      required: ['to', 'scope', 'expires'],
      options: ['workspace', 'json'],
      description: 'let an installed MCP client resolve stale edges',
    },
    { verb: 'revoke', operands: ['GRANT'], options: ['workspace'], description: 'end a grant' },
    { verb: 'delegations', options: ['workspace', 'json'], description: 'grants, revoked ones marked' },
    { verb: 'status', options: ['workspace', 'json'], description: "the workspace's ledger" },
    {
      verb: 'edges',
      options: ['workspace', 'json'],
      description: 'stale edges (reconciles the files first)',
    },
  ],
});

type Values = CommandValues<typeof COHERENCE_COMMAND_LINE.options>;

async function workspaceAt(
  input: string,
  cwd: string,
  writer: string,
  grants: GrantRecord,
): Promise<CoherenceWorkspace> {
  const folder = path.resolve(cwd, input);
  let canonical: string;
  try {
    canonical = await realpath(folder);
    if (!(await stat(canonical)).isDirectory()) throw new Error('not a folder');
  } catch {
    throw new CommandLineError(`not an accessible folder: ${folder}`);
  }
  return new CoherenceWorkspace(canonical, writer, grants);
}

function scopesOf(text: string): DelegableScope[] {
  const scopes = text.split(',').map((s) => s.trim());
  for (const scope of scopes) {
    if (!(DELEGABLE_SCOPES as readonly string[]).includes(scope))
      throw new CommandLineError(`unknown scope "${scope}": use ${DELEGABLE_SCOPES.join(' or ')}`);
  }
  return [...new Set(scopes as DelegableScope[])];
}

export function coherenceCommand(writer: () => Promise<string>, grants: GrantRecord): CliCommand {
  return {
    name: 'coherence',
    run: (argv, io) =>
      runCommandLine(COHERENCE_COMMAND_LINE, argv, io, async ({ verb, operands, values }) => {
        try {
          const workspace = await workspaceAt(values.workspace ?? '.', io.cwd, await writer(), grants);
          try {
            return await runVerb(verb, operands[0], values, workspace, io);
          } finally {
            workspace.dispose();
            await workspace.flush();
          }
        } catch (error) {
          if (!(error instanceof GrantRecordError)) throw error;
          io.err(`vmark coherence: ${error.message}\n`);
          return 1;
        }
      }),
  };
}

/** `--expires`, as a mistake of the command line when it names no time the grant could end at. */
function expiryOf(text: string): Date {
  try {
    return parseExpiry(text, new Date());
  } catch (error) {
    if (error instanceof RangeError) throw new CommandLineError(error.message);
    throw error;
  }
}

async function runVerb(
  verb: string | undefined,
  operand: string | undefined,
  values: Values,
  workspace: CoherenceWorkspace,
  io: CommandIo,
): Promise<number> {
  const print = (value: unknown, text: string) =>
    io.out(values.json ? JSON.stringify(value, null, 2) + '\n' : text);

  switch (verb) {
    case 'delegate': {
      // The command line requires all three.
      const [to, scopes, until] = [values.to!, values.scope!, values.expires!];
      if (to.trim() === '') throw new CommandLineError('--to CLIENT must name a client');
      const scope = scopesOf(scopes);
      const expires = expiryOf(until);
      const granted = await workspace.delegate({
        delegate: to,
        scope,
        expires,
        actor: await humanActorId(workspace.root),
      });
      const receipt = { ...granted, delegate: to, scope, expires: expires.toISOString() };
      print(receipt, `granted ${granted.grant}: ${to} may ${scope.join(', ')} until ${receipt.expires}\n`);
      return 0;
    }
    case 'revoke': {
      // The command line requires the GRANT operand.
      const revoked = await workspace.revoke(operand!, await humanActorId(workspace.root));
      if (revoked === null) {
        io.err(`vmark coherence: no live grant ${operand} in ${workspace.root}\n`);
        return 1;
      }
      print(revoked, `revoked ${revoked.grant}\n`);
      return 0;
    }
    case 'delegations': {
      const grants = await workspace.delegations();
      print(
        grants,
        grants
          .map(
            (g) =>
              `${g.grant}  ${g.delegate}  ${g.scope.length === 0 ? 'revoked' : g.scope.join(',')}  until ${g.expires}` +
              `${g.scope.length > 0 && !g.recorded ? "  (not in this installation's record: authorizes nothing here)" : ''}\n`,
          )
          .join('') || 'no grants\n',
      );
      return 0;
    }
    case 'status': {
      const status = await workspace.status(progressLines((text) => io.err(text)));
      print(
        status,
        status.initialized
          ? `${status.objects} objects, ${status.open_items} open items, ${status.quarantined} quarantined lines (writer ${status.writer})\n`
          : `not capturing yet (no .vmark/); ${status.objects} files carry an identity\n`,
      );
      return 0;
    }
    case 'edges': {
      const rows = await workspace.edges(progressLines((text) => io.err(text)));
      print(
        rows,
        rows
          .map(
            (r) =>
              `${r.state.padEnd(19)} ${r.downstream_path ?? r.downstream} ← ${r.upstream_path ?? r.upstream}  (${r.txf}#${r.input})\n`,
          )
          .join('') || 'no stale edges\n',
      );
      return 0;
    }
    default:
      // The command line admits only the verbs above.
      throw new CommandLineError(`unknown subcommand ${verb} for vmark coherence`);
  }
}
