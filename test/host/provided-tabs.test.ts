import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHost, type Host } from '../../core/composition/host.js';

/*
 * Tabs a plugin keeps, closed from the tab strip (ADR 56): the strip offers a close button only
 * for a provider that closes tabs, and a close goes to that provider alone.
 */

let host: Host;

beforeEach(async () => {
  const home = await fs.mkdtemp(path.join(os.tmpdir(), 'vmark-provided-home-'));
  host = await createHost({ home, userPlugins: false, extraPlugins: [] });
});
afterEach(async () => {
  await host.dispose();
});

const tab = (id: string) => ({ id, kind: 'browser', active: false });

describe('a provided tab closed from the strip', () => {
  it('is closed by its own provider, and a provider without close offers no button and closes nothing', async () => {
    const closed: string[] = [];
    const open = new Set(['tab-a']);
    host.workbench.registerTabProvider({
      tabs: (label) => (label === 'main' ? [...open].map(tab) : []),
      close: (tabId) => {
        closed.push(tabId);
        open.delete(tabId);
      },
    });
    host.workbench.registerTabProvider({ tabs: (label) => (label === 'main' ? [tab('tab-b')] : []) });
    expect(host.workbench.providedLabels('main').map((t) => [t.state.id, t.closable])).toEqual([
      ['tab-a', true],
      ['tab-b', false],
    ]);
    expect(host.workbench.isProvided('main', 'tab-a')).toBe(true);
    expect(host.workbench.isProvided('w-2', 'tab-a')).toBe(false);

    await expect(host.workbench.closeProvided('main', 'tab-b')).rejects.toThrow(/closed by the plugin/);
    await expect(host.workbench.closeProvided('w-2', 'tab-a')).rejects.toThrow(/Unknown tabId/);
    expect(closed).toEqual([]);
    await host.workbench.closeProvided('main', 'tab-a');
    expect(closed).toEqual(['tab-a']);
    await expect(host.workbench.closeProvided('main', 'tab-a')).rejects.toMatchObject({
      code: 'INVALID_TAB',
    });
  });

  it('answers with what its provider throws, and the tab stays', async () => {
    host.workbench.registerTabProvider({
      tabs: () => [tab('tab-c')],
      close: () => Promise.reject(new Error('TAB_TEARDOWN_FAILED: would not close')),
    });
    await expect(host.workbench.closeProvided('main', 'tab-c')).rejects.toThrow(/TAB_TEARDOWN_FAILED/);
    expect(host.workbench.isProvided('main', 'tab-c')).toBe(true);
  });
});
