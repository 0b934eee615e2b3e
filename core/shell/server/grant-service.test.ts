import { ArgumentError, type ToolCall } from '@vmark/sdk';
import { describe, expect, it } from 'vitest';
import { ApprovalBroker } from '../../approvals/approval-broker.js';
import type { PanelMessage } from '../../protocol/panel-protocol.js';
import { UiGrants } from './grant-service.js';

const CALL: ToolCall = {
  tool: 'browser',
  action: 'style',
  caller: { connectionId: 'conn-1', clientName: 'client', clientVersion: '1', principal: null },
  signal: new AbortController().signal,
  progress: () => undefined,
};

async function granted(): Promise<{ broker: ApprovalBroker; grants: UiGrants; sent: PanelMessage[] }> {
  const broker = new ApprovalBroker();
  const grants = new UiGrants(broker);
  const sent: PanelMessage[] = [];
  grants.attach((message) => sent.push(message));
  const registration = broker.registerApprover({ kind: 'ui', ask: () => Promise.resolve('allow-site') });
  await broker.request(
    { operation: 'style', subject: 's', origin: 'https://a.example', grantable: true },
    CALL,
  );
  registration.dispose();
  return { broker, grants, sent };
}

describe('UiGrants', () => {
  it('tells every window of a grant given or revoked, wherever it happened', async () => {
    const { broker, grants, sent } = await granted();
    expect(sent).toEqual([{ type: 'grants.changed', grants: broker.grants() }]);
    expect(grants.list()).toMatchObject([{ operation: 'style', origin: 'https://a.example' }]);
    broker.revoke({ all: true });
    expect(sent.at(-1)).toEqual({ type: 'grants.changed', grants: [] });
  });

  it('revokes by id, and refuses one no longer held without changing anything', async () => {
    const { broker, grants } = await granted();
    const [grant] = broker.grants();
    expect(grants.revoke({ id: grant!.id })).toEqual([]);
    expect(() => grants.revoke({ id: grant!.id })).toThrow('That standing grant is no longer held');
  });

  it("revokes a site's grants together, leaving other sites' alone, and refuses a site with none left", async () => {
    const { broker, grants } = await granted();
    const registration = broker.registerApprover({ kind: 'ui', ask: () => Promise.resolve('allow-site') });
    for (const [operation, origin] of [
      ['click', 'https://a.example'],
      ['style', 'https://b.example'],
    ] as const)
      await broker.request({ operation, subject: 's', origin, grantable: true }, CALL);
    registration.dispose();
    expect(grants.list().map((grant) => `${grant.operation} ${grant.origin}`)).toEqual([
      'style https://a.example',
      'click https://a.example',
      'style https://b.example',
    ]);
    // The origin as a person might write it: the broker's canonical form matches.
    expect(grants.revoke({ origin: 'HTTPS://A.example:443' })).toMatchObject([
      { operation: 'style', origin: 'https://b.example' },
    ]);
    expect(() => grants.revoke({ origin: 'https://a.example' })).toThrow(
      'No standing grant on that site is held any more',
    );
    expect(() => grants.revoke({ origin: 'not a site' })).toThrow(ArgumentError);
    expect(grants.list()).toHaveLength(1);
  });

  it('stops telling once disposed', async () => {
    const { broker, grants, sent } = await granted();
    grants.dispose();
    broker.revoke({ all: true });
    expect(sent).toHaveLength(1);
  });
});
