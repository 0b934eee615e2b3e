/**
 * `vmark coherence …`: what a person does at a terminal — grant and revoke delegations, and
 * look at a workspace's state. The workspace is the one named (`--workspace`, else the current
 * folder): the person typed it, so no open-workspace approval applies.
 */
import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { CliCommand, CommandIo } from '@vmark/sdk';
import { GrantRecordError, type GrantRecord } from '../delegation/grant-record.js';
import { DELEGABLE_SCOPES, type DelegableScope } from '../delegation/grants.js';
import { humanActorId } from '../delegation/human-actor.js';
import { CoherenceWorkspace } from '../workspace/coherence-workspace.js';
import { parseExpiry } from './expiry.js';

export const COHERENCE_USAGE = `Usage:
  vmark coherence delegate --to CLIENT --scope SCOPE[,SCOPE] --expires 7d [--workspace DIR] [--json]
      let an installed MCP client (vmark mcp clients) resolve edges; SCOPE is
      resolve.accept-newer or resolve.waive; --expires is 30m, 12h, 7d, 2w or an RFC 3339 date
  vmark coherence revoke GRANT [--workspace DIR]
  vmark coherence delegations [--workspace DIR] [--json]   grants, revoked ones marked
  vmark coherence status [--workspace DIR] [--json]
  vmark coherence edges [--workspace DIR] [--json]         stale edges (reconciles the files first)
`;

class CommandLineError extends Error {}

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

function scopesOf(text: string | undefined): DelegableScope[] {
  if (text === undefined) throw new CommandLineError('delegate needs --scope');
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
    async run(argv, io) {
      try {
        return await run(argv, io, writer, grants);
      } catch (error) {
        if (error instanceof GrantRecordError) {
          io.err(`vmark coherence: ${error.message}\n`);
          return 1;
        }
        if (!(error instanceof CommandLineError) && !(error instanceof RangeError)) throw error;
        io.err(`vmark coherence: ${error.message}\n\n${COHERENCE_USAGE}`);
        return 2;
      }
    },
  };
}

async function run(
  argv: readonly string[],
  io: CommandIo,
  writer: () => Promise<string>,
  grants: GrantRecord,
): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      options: {
        workspace: { type: 'string' },
        to: { type: 'string' },
        scope: { type: 'string' },
        expires: { type: 'string' },
        json: { type: 'boolean' },
      },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    throw new CommandLineError(error instanceof Error ? error.message : String(error));
  }
  const { values, positionals } = parsed;
  const [verb, operand, ...extra] = positionals;
  if (extra.length > 0) throw new CommandLineError(`unexpected arguments: ${extra.join(' ')}`);
  const workspace = await workspaceAt(values.workspace ?? '.', io.cwd, await writer(), grants);
  try {
    return await runVerb(verb, operand, values, workspace, io);
  } finally {
    workspace.dispose();
  }
}

async function runVerb(
  verb: string | undefined,
  operand: string | undefined,
  values: { to?: string; scope?: string; expires?: string; json?: boolean },
  workspace: CoherenceWorkspace,
  io: CommandIo,
): Promise<number> {
  const print = (value: unknown, text: string) =>
    io.out(values.json ? JSON.stringify(value, null, 2) + '\n' : text);

  switch (verb) {
    case 'delegate': {
      if (values.to === undefined || values.to.trim() === '')
        throw new CommandLineError('delegate needs --to CLIENT');
      if (values.expires === undefined)
        throw new CommandLineError('delegate needs --expires (grants always end)');
      const scope = scopesOf(values.scope);
      const expires = parseExpiry(values.expires, new Date());
      const granted = await workspace.delegate({
        delegate: values.to,
        scope,
        expires,
        actor: await humanActorId(workspace.root),
      });
      const receipt = { ...granted, delegate: values.to, scope, expires: expires.toISOString() };
      print(
        receipt,
        `granted ${granted.grant}: ${values.to} may ${scope.join(', ')} until ${receipt.expires}\n`,
      );
      return 0;
    }
    case 'revoke': {
      if (operand === undefined)
        throw new CommandLineError('revoke needs a GRANT id (vmark coherence delegations)');
      const revoked = await workspace.revoke(operand, await humanActorId(workspace.root));
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
      const status = await workspace.status();
      print(
        status,
        status.initialized
          ? `${status.objects} objects, ${status.open_items} open items, ${status.quarantined} quarantined lines (writer ${status.writer})\n`
          : `not capturing yet (no .vmark/); ${status.objects} files carry an identity\n`,
      );
      return 0;
    }
    case 'edges': {
      const rows = await workspace.edges();
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
      throw new CommandLineError(
        verb === undefined ? 'which coherence command?' : `unknown coherence command: ${verb}`,
      );
  }
}
