import type { ToolCall } from '@vmark/sdk';
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
    expect(grants.revoke(grant!.id)).toEqual([]);
    expect(() => grants.revoke(grant!.id)).toThrow('That standing grant is no longer held');
  });

  it('stops telling once disposed', async () => {
    const { broker, grants, sent } = await granted();
    grants.dispose();
    broker.revoke({ all: true });
    expect(sent).toHaveLength(1);
  });
});
