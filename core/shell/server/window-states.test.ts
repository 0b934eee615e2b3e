import { describe, expect, it } from 'vitest';
import type { UiState } from '../../protocol/protocol.js';
import { WindowStates } from './window-states.js';

/* Each page gets its own window's state, once per burst of changes, and only when it changed. */

const stateOf = (label: string, tabs: number): UiState => ({
  window: {
    label,
    focused: false,
    workspaces: [],
    activeWorkspaceInstanceId: null,
    tabs: Array.from({ length: tabs }, (_, i) => ({
      id: `tab-${i}`,
      title: 't',
      filePath: null,
      kind: 'markdown',
      dirty: false,
      active: false,
      visible: true,
    })),
  },
  roots: [],
});
const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('WindowStates', () => {
  it('sends each page its own window, and again only what changed for it', async () => {
    const tabs = new Map([
      ['main', 0],
      ['w-2', 0],
    ]);
    const states = new WindowStates((label) => stateOf(label, tabs.get(label)!));
    const sent: Record<string, string[]> = { main: [], 'w-2': [] };
    states.add({}, 'main', (json) => sent.main!.push(json));
    const second = {};
    states.add(second, 'w-2', (json) => sent['w-2']!.push(json));
    expect(sent.main).toHaveLength(1);
    expect((JSON.parse(sent['w-2']![0]!) as { state: UiState }).state.window.label).toBe('w-2');

    tabs.set('w-2', 1);
    states.changed();
    states.changed();
    await tick();
    expect(sent.main).toHaveLength(1);
    expect(sent['w-2']).toHaveLength(2);

    states.remove(second);
    tabs.set('w-2', 2);
    states.changed();
    await tick();
    expect(sent['w-2']).toHaveLength(2);
  });

  it('sends nothing once disposed', async () => {
    let tabs = 0;
    const states = new WindowStates((label) => stateOf(label, tabs));
    const sent: string[] = [];
    states.add({}, 'main', (json) => sent.push(json));
    states.changed();
    states.dispose();
    tabs = 1;
    await tick();
    states.changed();
    await tick();
    expect(sent).toHaveLength(1);
  });
});
