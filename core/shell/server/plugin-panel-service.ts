import type { Disposable } from '@vmark/sdk';
import { DisposableStore } from '@vmark/sdk';
import type { PluginHost } from '../../plugins/plugin-host.js';
import type { PanelMessage, UiPluginPanel } from '../../protocol/panel-protocol.js';
import { panelModulePath } from './plugin-ui-files.js';

/** What the panels of plugins need of the plugin host. */
export type PluginPanelSource = Pick<PluginHost, 'activePanels' | 'panels'>;

/**
 * The host side of the panels plugins contribute (ADR 20): which panels the
 * active plugins offer, each panel's requests routed to its own plugin's
 * provider, and the providers' refreshes pushed to every window.
 */
export class UiPluginPanels {
  constructor(private readonly plugins: PluginPanelSource) {}

  list(): UiPluginPanel[] {
    return this.plugins.activePanels().map(({ pluginId, panel }) => ({
      pluginId,
      panelId: panel.id,
      title: panel.title,
      slot: panel.slot,
      modulePath: panelModulePath(pluginId, panel),
    }));
  }

  /**
   * @throws ArgumentError for a panel with no active provider or an unknown request.
   * The provider's answer crosses the socket as JSON: made so here, so a value that is
   * not JSON fails this request instead of the connection.
   */
  async request(pluginId: string, panelId: string, method: string, params: unknown): Promise<unknown> {
    const value = await this.plugins.panels.request(pluginId, panelId, method, params);
    return JSON.parse(JSON.stringify(value ?? null)) as unknown;
  }

  /** One window's refresh pushes; dispose it when the window goes. */
  attach(send: (message: PanelMessage) => void): Disposable {
    const store = new DisposableStore();
    store.add(
      this.plugins.panels.onRefresh(({ pluginId, panelId }) =>
        send({ type: 'pluginPanels.refresh', pluginId, panelId }),
      ),
    );
    return store;
  }
}
