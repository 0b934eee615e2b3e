import { isTokenError } from '@vmark/sdk';
import { describe, expect, it } from 'vitest';
import { HUMAN_DRIVING_MESSAGE, TabLease } from './tab-lease.js';

describe('TabLease', () => {
  it('gives a tab to the AI until the person takes it over, and back when they hand it back', () => {
    const lease = new TabLease();
    expect(lease.driver('tab-1')).toBe('ai');
    lease.takeOver('tab-1');
    expect(lease.isHumanDriving('tab-1')).toBe(true);
    expect(lease.isHumanDriving('tab-2')).toBe(false);
    lease.handBack('tab-1');
    expect(lease.driver('tab-1')).toBe('ai');
  });

  it("refuses the AI with the notes' words and token while the person drives", () => {
    const lease = new TabLease();
    expect(() => lease.assertAiMayDrive('tab-1')).not.toThrow();
    lease.takeOver('tab-1');
    let thrown: unknown;
    try {
      lease.assertAiMayDrive('tab-1');
    } catch (error) {
      thrown = error;
    }
    expect(isTokenError(thrown)).toBe(true);
    expect(thrown).toMatchObject({
      token: 'LEASE_LOST',
      message: HUMAN_DRIVING_MESSAGE,
      data: { tabId: 'tab-1' },
    });
    expect(HUMAN_DRIVING_MESSAGE).toBe('the human is currently driving this tab');
  });

  it('tells its listeners once per take-over, and never after they are disposed', () => {
    const lease = new TabLease();
    const taken: string[] = [];
    const changes: string[] = [];
    const listener = lease.onTakenOver((tabId) => taken.push(tabId));
    lease.onChanged((tabId, driver) => changes.push(`${tabId}:${driver}`));
    lease.takeOver('tab-1');
    lease.takeOver('tab-1');
    lease.handBack('tab-1');
    lease.handBack('tab-1');
    listener.dispose();
    lease.takeOver('tab-1');
    expect(taken).toEqual(['tab-1']);
    expect(changes).toEqual(['tab-1:human', 'tab-1:ai', 'tab-1:human']);
  });

  it('forgets a tab that went away, saying nothing', () => {
    const lease = new TabLease();
    const changes: string[] = [];
    lease.onChanged((tabId) => changes.push(tabId));
    lease.takeOver('tab-1');
    lease.forget('tab-1');
    expect(lease.isHumanDriving('tab-1')).toBe(false);
    expect(changes).toEqual(['tab-1']);
  });
});
