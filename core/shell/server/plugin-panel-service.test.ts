import { describe, expect, it } from 'vitest';
import { PanelRegistry } from '../../plugins/panel-registry.js';
import type { PanelMessage } from '../../protocol/panel-protocol.js';
import { UiPluginPanels } from './plugin-panel-service.js';

function service() {
  const panels = new PanelRegistry();
  const ui = new UiPluginPanels({
    panels,
    activePanels: () => [
      { pluginId: 'notes', dir: '/p/notes', panel: { id: 'outline', title: 'Outline', slot: 'bottom' } },
    ],
  });
  return { panels, ui };
}

describe('UiPluginPanels', () => {
  it('lists the active panels with the URL path of their module', () => {
    expect(service().ui.list()).toEqual([
      {
        pluginId: 'notes',
        panelId: 'outline',
        title: 'Outline',
        slot: 'bottom',
        modulePath: '/plugins/notes/ui/outline.js',
      },
    ]);
  });

  it('answers with JSON only: undefined becomes null, and a value JSON cannot carry fails the request', async () => {
    const { panels, ui } = service();
    panels.add('notes', {
      id: 'outline',
      load: () => undefined,
      actions: { big: () => ({ n: 1n }), when: () => ({ at: new Date(0) }) },
    });
    expect(await ui.request('notes', 'outline', 'load', null)).toBeNull();
    expect(await ui.request('notes', 'outline', 'when', null)).toEqual({ at: '1970-01-01T00:00:00.000Z' });
    await expect(ui.request('notes', 'outline', 'big', null)).rejects.toThrow(/BigInt/);
  });

  it('pushes a provider’s refresh to each attached window until it detaches', () => {
    const { panels, ui } = service();
    const registration = panels.add('notes', { id: 'outline', load: () => null });
    const sent: PanelMessage[] = [];
    const window = ui.attach((m) => sent.push(m));
    registration.refresh();
    window.dispose();
    registration.refresh();
    expect(sent).toEqual([{ type: 'pluginPanels.refresh', pluginId: 'notes', panelId: 'outline' }]);
  });
});
