// Forging coherence authority by editing the ledger (ADR 23), through a real MCP client against the
// built CLI. The tools cannot reach the ledger; a client with a shell can, so these tests edit it
// with fs directly, and the person's record in $VMARK_HOME must keep the edit from authorizing.
import { randomUUID } from 'node:crypto';
import { appendFile, readFile, realpath, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { call, connectStdio, runCli, TempDirs } from './support/cli.js';
import { delegate, deriveAndChangeUpstream, installClient, ledgerSegment } from './support/coherence.js';

const temp = new TempDirs();
afterAll(() => temp.cleanup());

let workspace: string;
let home: string;
const clients: Client[] = [];

beforeEach(async () => {
  workspace = await realpath(await temp.make());
  home = await temp.make('vmark-home-');
  await writeFile(path.join(workspace, 'elena.md'), '# Elena\n\nElena is a smith.\n');
  await writeFile(path.join(workspace, 'chapter-3.md'), '# Chapter 3\n');
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

async function connect(atHome: string, token: string): Promise<Client> {
  const { client } = await connectStdio(['--workspace', workspace], atHome, {
    env: { VMARK_MCP_TOKEN: token },
  });
  clients.push(client);
  return client;
}

/** An installed client with a stale edge to resolve. */
async function staleEdge(): Promise<{ client: Client; resolve: Record<string, unknown> }> {
  const client = await connect(home, await installClient(home, 'e2e-client'));
  const edge = await deriveAndChangeUpstream(client, workspace);
  return {
    client,
    resolve: { action: 'resolve', workspace_root: workspace, ...edge, resolution: 'accept-newer' },
  };
}

type LedgerLine = { id: string; kind: string; body: Record<string, unknown> };
const linesOf = async (file: string): Promise<LedgerLine[]> =>
  (await readFile(file, 'utf8'))
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as LedgerLine);

/** A format-0 delegation line, as someone with a shell would append it. */
function forgedDelegation(writer: string): string {
  return (
    JSON.stringify({
      format: 0,
      id: randomUUID(),
      kind: 'delegation',
      time: new Date().toISOString(),
      writer,
      idem: randomUUID(),
      body: {
        delegation: randomUUID(),
        actor: { type: 'human', id: 'Ada' },
        delegate: { type: 'external', id: 'e2e-client' },
        scope: ['resolve.accept-newer', 'resolve.waive'],
        expires: '2099-01-01T00:00:00.000Z',
        supersedes: null,
      },
    }) + '\n'
  );
}

const DISAGREE = "the ledger and the person's record disagree about grant";

describe('a hand-edited ledger authorizes nothing', () => {
  it('dropping the revocation line does not revive the grant (the attack of issue 9)', async () => {
    const { client, resolve } = await staleEdge();
    const grant = await delegate(home, workspace, 'e2e-client', 'resolve.accept-newer');
    const revoked = await runCli(['coherence', 'revoke', grant, '--workspace', workspace], {
      VMARK_HOME: home,
    });
    expect(revoked.code).toBe(0);
    const segment = await ledgerSegment(workspace, home);

    // Through the tools the ledger is out of reach.
    const open = await call(client, 'workspace', { action: 'open', filePath: segment });
    expect(open.data).toMatchObject({ error: 'INVALID_PATH' });

    // With a shell it is not: the segment is rewritten without the revocation.
    const lines = await linesOf(segment);
    const revocation = lines.find((l) => l.kind === 'delegation' && (l.body.scope as string[]).length === 0)!;
    await writeFile(
      segment,
      lines
        .filter((l) => l.id !== revocation.id)
        .map((l) => JSON.stringify(l) + '\n')
        .join(''),
    );
    const listed = await runCli(['coherence', 'delegations', '--workspace', workspace, '--json'], {
      VMARK_HOME: home,
    });
    expect(JSON.parse(listed.stdout)).toEqual([
      expect.objectContaining({ grant, scope: ['resolve.accept-newer'], recorded: false }),
    ]);

    const out = await call(client, 'coherence_resolve', resolve);
    expect(out.isError).toBe(true);
    expect(out.text).toBe(
      `${DISAGREE} ${grant} for "e2e-client" (resolve.accept-newer): it is live in the ledger but revoked or ` +
        "absent in the person's record. It authorizes nothing. A person can run " +
        `\`vmark coherence revoke ${grant}\` and delegate again; do not retry.`,
    );
    // Nothing was resolved: the edge is still stale.
    const edges = JSON.parse(
      (await call(client, 'coherence', { action: 'edges', workspace_root: workspace })).text,
    );
    expect(edges).toEqual([expect.objectContaining({ state: 'version-stale' })]);
  });

  it("an appended delegation authorizes nothing, in this installation's name or another's", async () => {
    const { client, resolve } = await staleEdge();
    const segment = await ledgerSegment(workspace, home);
    const writer = path.basename(segment, '.jsonl');
    const forged = forgedDelegation(writer);
    await appendFile(segment, forged);
    const mine = await call(client, 'coherence_resolve', resolve);
    expect(mine.isError).toBe(true);
    expect(mine.text).toContain(DISAGREE);

    // The same line under a made-up writer id, in a segment of its own.
    await writeFile(segment, (await readFile(segment, 'utf8')).replace(forged, ''));
    const stranger = randomUUID();
    await writeFile(
      path.join(workspace, '.vmark', 'ledger', `${stranger}.jsonl`),
      forgedDelegation(stranger),
    );
    const theirs = await call(client, 'coherence_resolve', {
      ...resolve,
      resolution: 'waive',
      reason: 'forged',
    });
    expect(theirs.isError).toBe(true);
    expect(theirs.text).toMatch(
      /^no live delegation authorizes "e2e-client" for resolve\.waive on this installation: grant .* was made by another installation/,
    );
    const edges = JSON.parse(
      (await call(client, 'coherence', { action: 'edges', workspace_root: workspace })).text,
    );
    expect(edges).toEqual([expect.objectContaining({ state: 'version-stale' })]);
  });

  it('a grant whose expiry was pushed later in the ledger is refused', async () => {
    const { client, resolve } = await staleEdge();
    const grant = await delegate(home, workspace, 'e2e-client', 'resolve.accept-newer');
    const segment = await ledgerSegment(workspace, home);
    const text = await readFile(segment, 'utf8');
    const line = (await linesOf(segment)).find((l) => l.body.delegation === grant)!;
    await writeFile(segment, text.replace(line.body.expires as string, '2099-01-01T00:00:00.000Z'));
    const out = await call(client, 'coherence_resolve', resolve);
    expect(out.text).toContain(`${DISAGREE} ${grant}`);
    expect(out.text).toContain("differ from the person's record");
  });
});

describe('two installations sharing one workspace (as through git)', () => {
  it('a grant made on one is no authority on the other', async () => {
    const other = await temp.make('vmark-home-other-');
    const here = await connect(home, await installClient(home, 'e2e-client'));
    const edge = await deriveAndChangeUpstream(here, workspace);
    const resolve = { action: 'resolve', workspace_root: workspace, ...edge, resolution: 'accept-newer' };
    const grant = await delegate(home, workspace, 'e2e-client', 'resolve.accept-newer');

    // The other installation has a client of the same name, and sees the same ledger.
    const there = await connect(other, await installClient(other, 'e2e-client'));
    const refused = await call(there, 'coherence_resolve', resolve);
    expect(refused.text).toBe(
      'no live delegation authorizes "e2e-client" for resolve.accept-newer on this installation: grant ' +
        `${grant} in the ledger was made by another installation (another VMARK_HOME or machine), and a ` +
        'grant authorizes only where it was made',
    );
    const listed = await runCli(['coherence', 'delegations', '--workspace', workspace], {
      VMARK_HOME: other,
    });
    expect(listed.stdout).toContain(`${grant}  e2e-client  resolve.accept-newer`);
    expect(listed.stdout).toContain("(not in this installation's record: authorizes nothing here)");

    // Where it was made, it authorizes.
    const accepted = await call(here, 'coherence_resolve', resolve);
    expect(accepted.isError).toBe(false);
    expect(JSON.parse(accepted.text)).toMatchObject({ kind: 'ratification' });

    // A grant made on the other installation then authorizes there, beside the first one's.
    const file = path.join(workspace, 'elena.md');
    await writeFile(file, (await readFile(file, 'utf8')).replace('a baker', 'a tailor'));
    const [row] = JSON.parse(
      (await call(there, 'coherence', { action: 'edges', workspace_root: workspace })).text,
    ) as {
      txf: string;
      input: number;
    }[];
    await delegate(other, workspace, 'e2e-client', 'resolve.accept-newer');
    const theirs = await call(there, 'coherence_resolve', { ...resolve, txf: row!.txf, input: row!.input });
    expect(theirs.isError).toBe(false);
  });
});
