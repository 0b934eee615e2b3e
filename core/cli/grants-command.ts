import { CommandLineError, z } from '@vmark/sdk';
import { GRANT_ID } from '../approvals/approval-id.js';
import { describeAsker } from '../approvals/approval-message.js';
import { canonicalOrigin } from '../approvals/canonical-origin.js';
import { NotAnOriginError, type StandingGrant } from '../approvals/standing-grant.js';
import { vmarkHome } from '../composition/environment.js';
import { ago } from './ago.js';
import { askEveryHost } from './every-host.js';
import { controlRequest, replyMessage } from '../control/control-client.js';
import { listRunningHosts, type RunningHost } from '../control/host-file.js';

/**
 * `vmark approvals grants` and `vmark approvals revoke GRANT-ID | --origin ORIGIN | --all`: the
 * standing grants ("allow on this site") the running hosts of this VMARK_HOME hold, and ending
 * them. Grants live in a host's memory only, so this asks each host over its control channel.
 */

/** What `revoke` was asked to end. */
export type RevokeTarget = { readonly id: string } | { readonly origin: string } | { readonly all: true };

/** The target of `revoke`, checked before any host is asked. @throws CommandLineError */
export function revokeTarget(
  operand: string | undefined,
  origin: string | undefined,
  all: boolean,
): RevokeTarget {
  if (all) return { all: true };
  if (origin !== undefined) {
    const canonical = canonicalOrigin(origin);
    if (canonical === undefined) throw new CommandLineError(new NotAnOriginError(origin).message);
    return { origin: canonical };
  }
  if (operand === undefined || !GRANT_ID.test(operand)) {
    throw new CommandLineError(
      `"${operand ?? ''}" is not a grant id; ids look like grt-Ab3dE6gH (see vmark approvals grants)`,
    );
  }
  return { id: operand };
}

export async function listGrants(json: boolean): Promise<number> {
  const answers = await askEveryHost(json, (host) => ask(host, 'GET', '/grants', 'grants'));
  if (answers === undefined) return 0;
  const listings = answers.map(({ host, answer }) => ({ host, grants: answer ?? [] }));
  if (json) {
    const all = listings.flatMap(({ host, grants }) =>
      grants.map((grant) => ({ ...grant, hostPid: host.pid })),
    );
    process.stdout.write(JSON.stringify(all, null, 2) + '\n');
    return 0;
  }
  const total = listings.reduce((sum, { grants }) => sum + grants.length, 0);
  if (total === 0) {
    process.stdout.write('no standing grants\n');
    return 0;
  }
  const now = Date.now();
  const lines: string[] = [];
  for (const { host, grants } of listings) {
    if (grants.length === 0) continue;
    if (listings.length > 1) lines.push(`vmark host ${host.pid} (version ${host.version}):`);
    for (const grant of grants) {
      lines.push(
        `${grant.id}  ${grant.operation}  ${grant.origin}  given ${ago(grant.grantedAt, now)} (${GIVEN_IN[grant.grantedBy]})`,
        `    held by: ${describeAsker(grant)}`,
      );
    }
  }
  lines.push('', 'End one with: vmark approvals revoke GRANT-ID   (or --origin ORIGIN, or --all)');
  process.stdout.write(lines.join('\n') + '\n');
  return 0;
}

export async function revokeGrants(target: RevokeTarget, json: boolean): Promise<number> {
  const home = vmarkHome();
  const hosts = await listRunningHosts(home);
  if (hosts.length === 0) {
    process.stderr.write(`vmark: no running vmark host (VMARK_HOME=${home}), so no grant is held\n`);
    return 1;
  }
  const path =
    'id' in target
      ? `/grants/${target.id}/revoke`
      : 'origin' in target
        ? `/grants/origin/${encodeURIComponent(target.origin)}/revoke`
        : '/grants/revoke-all';
  const revoked: (StandingGrant & { hostPid: number })[] = [];
  for (const host of hosts) {
    const reply = await ask(host, 'POST', path, 'revoked');
    revoked.push(...(reply ?? []).map((grant) => ({ ...grant, hostPid: host.pid })));
    // An id names one grant of one host.
    if ('id' in target && revoked.length > 0) break;
  }
  if (json) {
    process.stdout.write(JSON.stringify(revoked, null, 2) + '\n');
  } else {
    for (const grant of revoked) {
      process.stdout.write(
        `revoked ${grant.id}: ${grant.operation} on ${grant.origin}, held by ${describeAsker(grant)}\n`,
      );
    }
  }
  if (revoked.length > 0 || 'all' in target) {
    if (!json && revoked.length === 0) process.stdout.write('no standing grants to revoke\n');
    return 0;
  }
  process.stderr.write(
    'id' in target
      ? `vmark: no running vmark host holds standing grant ${target.id}: it was already revoked, or never ` +
          'existed (see vmark approvals grants)\n'
      : `vmark: no standing grant on ${target.origin} (see vmark approvals grants)\n`,
  );
  return 1;
}

/** A host's grants (under `field`), or undefined after saying why not; a 404 (an id it does not hold) is no grants. */
async function ask(
  host: RunningHost,
  method: 'GET' | 'POST',
  path: string,
  field: 'grants' | 'revoked',
): Promise<StandingGrant[] | undefined> {
  try {
    const response = await controlRequest(host, method, path);
    if (response.status === 404 && field === 'revoked') return [];
    const parsed = z.object({ [field]: z.array(listedGrant) }).safeParse(response.body);
    if (response.status !== 200 || !parsed.success) {
      throw new Error(`vmark host ${host.pid} answered ${response.status}: ${replyMessage(response.body)}`);
    }
    return parsed.data[field];
  } catch (error) {
    process.stderr.write(`vmark: ${error instanceof Error ? error.message : String(error)}\n`);
    return undefined;
  }
}

const GIVEN_IN: Readonly<Record<StandingGrant['grantedBy'], string>> = {
  ui: 'in the editor',
  elicitation: 'in the client’s form',
  terminal: 'at a terminal',
};

/** A host of another version might send other shapes: only well-formed grants are shown. */
const listedGrant = z.object({
  id: z.string(),
  operation: z.string(),
  origin: z.string(),
  connectionId: z.string(),
  clientName: z.string(),
  principal: z.string().nullable(),
  grantedBy: z.enum(['ui', 'elicitation', 'terminal']),
  grantedAt: z.string(),
});
