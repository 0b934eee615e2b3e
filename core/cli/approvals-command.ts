import { CommandLineError, runCommandLine, z } from '@vmark/sdk';
import type { ApprovalDecision, ApprovalEntry } from '../approvals/approval-entry.js';
import { APPROVAL_ID } from '../approvals/approval-id.js';
import { describeAsker, quoteSubject } from '../approvals/approval-message.js';
import { controlRequest, replyMessage } from '../control/control-client.js';
import { listRunningHosts, type RunningHost } from '../control/host-file.js';
import { APPROVALS_COMMAND_LINE } from './command-lines.js';
import { vmarkHome } from '../composition/environment.js';
import { ago } from './ago.js';
import { askEveryHost } from './every-host.js';
import { listGrants, revokeGrants, revokeTarget } from './grants-command.js';
import { terminalIo } from './terminal-io.js';

/** An entry as `list --json` prints it: which host holds it, never that host's token. */
type ListedEntry = ApprovalEntry & { readonly hostPid: number };

/**
 * `vmark approvals list | allow ID | allow-until-navigation ID | deny ID`: a person at a terminal answers
 * the requests that running hosts of this VMARK_HOME could not put to anyone;
 * `grants` and `revoke` show and end the standing grants (grants-command.ts).
 */
export function approvalsCommand(argv: string[]): Promise<number> {
  return runCommandLine(APPROVALS_COMMAND_LINE, argv, terminalIo(), ({ verb, operands, values }) => {
    const json = values.json === true;
    if (verb === 'list') return list(json);
    if (verb === 'grants') return listGrants(json);
    if (verb === 'revoke')
      return revokeGrants(revokeTarget(operands[0], values.origin, values.all === true), json);
    const id = operands[0]!;
    if (!APPROVAL_ID.test(id)) {
      throw new CommandLineError(
        `"${id}" is not an approval id; ids look like apr-Ab3dE6gH (see vmark approvals list)`,
      );
    }
    return decide(verb === 'allow' || verb === 'allow-until-navigation' ? verb : 'deny', id, json);
  });
}

async function list(json: boolean): Promise<number> {
  const answers = await askEveryHost(json, async (host): Promise<ApprovalEntry[]> => {
    try {
      const response = await controlRequest(host, 'GET', '/approvals');
      const approvals = (response.body as { approvals?: unknown } | null)?.approvals;
      if (response.status !== 200 || !Array.isArray(approvals) || !approvals.every(isEntry)) {
        throw new Error(`vmark host ${host.pid} answered ${response.status}: ${replyMessage(response.body)}`);
      }
      return approvals;
    } catch (error) {
      process.stderr.write(`vmark: ${error instanceof Error ? error.message : String(error)}\n`);
      return [];
    }
  });
  if (answers === undefined) return 0;
  const listings = answers.map(({ host, answer }) => ({ host, entries: answer }));
  if (json) {
    const entries: ListedEntry[] = listings.flatMap(({ host, entries }) =>
      entries.map((entry) => ({ ...entry, hostPid: host.pid })),
    );
    process.stdout.write(JSON.stringify(entries, null, 2) + '\n');
  } else {
    process.stdout.write(table(listings, Date.now()));
  }
  return 0;
}

async function decide(verb: ApprovalDecision, id: string, json: boolean): Promise<number> {
  const home = vmarkHome();
  const hosts = await listRunningHosts(home);
  if (hosts.length === 0) {
    process.stderr.write(
      `vmark: no running vmark host (VMARK_HOME=${home}), so nothing waits for approval\n`,
    );
    return 1;
  }
  for (const host of hosts) {
    let response;
    try {
      response = await controlRequest(host, 'POST', `/approvals/${id}/${verb}`);
    } catch (error) {
      process.stderr.write(`vmark: ${error instanceof Error ? error.message : String(error)}\n`);
      continue;
    }
    if (response.status === 404) continue;
    if (response.status === 409) {
      // The host holds it but did not offer that answer: nothing was decided.
      process.stderr.write(`vmark: ${replyMessage(response.body)}\n`);
      return 1;
    }
    const approval = (response.body as { approval?: unknown } | null)?.approval;
    if (response.status !== 200 || !isEntry(approval)) {
      process.stderr.write(
        `vmark: vmark host ${host.pid} answered ${response.status}: ${replyMessage(response.body)}\n`,
      );
      continue;
    }
    process.stdout.write(
      json ? JSON.stringify({ ...approval, hostPid: host.pid }, null, 2) + '\n' : decided(approval),
    );
    return 0;
  }
  process.stderr.write(
    `vmark: no running vmark host holds approval request ${id}: it was already used, has expired, ` +
      'or never existed (see vmark approvals list)\n',
  );
  return 1;
}

function decided(entry: ApprovalEntry): string {
  const what = `${entry.operation} on ${quoteSubject(entry.subject)}`;
  const effect =
    entry.status !== 'allowed'
      ? 'its tries of this operation on that connection are refused until someone allows it'
      : entry.lasts === 'until-navigation'
        ? 'its next try of this operation on that connection goes ahead, and holds until the page navigates'
        : 'its next try of this operation on that connection goes ahead (once)';
  return (
    `${entry.status} ${entry.id}: ${what}\n` +
    `Asked by ${describeAsker(entry)}: ${effect}. Other connections asking the same are asked on their own.\n`
  );
}

const STATUS_LABEL: Readonly<Record<ApprovalEntry['status'], string>> = {
  waiting: 'waiting',
  allowed: 'allowed (not used yet)',
  denied: 'denied',
};

/**
 * One block per entry: the subject gets a line of its own, whole and quoted,
 * because a person must see exactly what they are allowing (a path, a full script).
 */
function table(
  listings: readonly { host: RunningHost; entries: readonly ApprovalEntry[] }[],
  now: number,
): string {
  const total = listings.reduce((sum, listing) => sum + listing.entries.length, 0);
  if (total === 0) {
    const hosts = listings.length === 1 ? '1 running vmark host' : `${listings.length} running vmark hosts`;
    return `no approval requests (${hosts})\n`;
  }
  const lines: string[] = [];
  for (const { host, entries } of listings) {
    if (entries.length === 0) continue;
    if (listings.length > 1) lines.push(`vmark host ${host.pid} (version ${host.version}):`);
    for (const entry of entries) {
      lines.push(
        `${entry.id}  ${STATUS_LABEL[entry.status]}  ${entry.operation}  ${ago(entry.createdAt, now)}`,
        `    from:     ${describeAsker(entry)}`,
        `    subject:  ${quoteSubject(entry.subject)}`,
        ...(entry.requested === undefined ? [] : [`    asked as: ${quoteSubject(entry.requested)}`]),
        ...(entry.origin === undefined ? [] : [`    origin:   ${quoteSubject(entry.origin)}`]),
        ...(entry.detail === undefined ? [] : [`    detail:   ${entry.detail}`]),
        ...(entry.warning === undefined ? [] : [`    note:     ${entry.warning}`]),
        ...(entry.untilNavigation === true
          ? [`    may also: vmark approvals allow-until-navigation ${entry.id}`]
          : []),
      );
    }
  }
  if (listings.some(({ entries }) => entries.some((entry) => entry.status !== 'allowed'))) {
    lines.push('', 'Answer with: vmark approvals allow ID   or   vmark approvals deny ID');
  }
  return lines.join('\n') + '\n';
}

/** A host of another version might send other shapes: only well-formed entries are shown. */
/** What a host's answer must hold to be shown as an entry; the entry is printed as the host sent it. */
const listedEntry = z.object({
  id: z.string(),
  operation: z.string(),
  subject: z.string(),
  origin: z.string().optional(),
  requested: z.string().optional(),
  warning: z.string().optional(),
  detail: z.string().optional(),
  status: z.enum(['waiting', 'allowed', 'denied']),
  createdAt: z.string(),
  clientName: z.string(),
  connectionId: z.string(),
  principal: z.string().nullable(),
});

function isEntry(value: unknown): value is ApprovalEntry {
  return listedEntry.safeParse(value).success;
}
