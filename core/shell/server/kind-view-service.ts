import type { PluginHost } from '../../plugins/plugin-host.js';
import type { UiKindView } from '../../protocol/panel-protocol.js';
import { viewModulePath } from './plugin-ui-files.js';

/**
 * The kind views the active plugins contribute (ADR 35), for the renderer: which module draws
 * each kind. A kind missing from the list opens read-only as plain text. The renderer lists
 * them again on every `plugins.changed`, so a plugin turned off takes its views with it.
 */
export class UiKindViews {
  constructor(private readonly plugins: Pick<PluginHost, 'activeViews'>) {}

  list(): UiKindView[] {
    return this.plugins.activeViews().map(({ pluginId, view }) => ({
      pluginId,
      kind: view.kind,
      modulePath: viewModulePath(pluginId, view),
    }));
  }
}
