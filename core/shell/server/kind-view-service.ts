import type { Disposable } from '@vmark/sdk';
import type { PluginHost } from '../../plugins/plugin-host.js';
import type { UiKindView } from '../../protocol/panel-protocol.js';
import { viewModulePath } from './plugin-ui-files.js';

/**
 * The kind views the active plugins contribute (ADR 35), for the renderer: which module draws
 * each kind. A kind missing from the list opens read-only as plain text. The renderer lists
 * them again on every `plugins.changed`, so a plugin turned off takes its views with it.
 * A custom view's requests and watches go to its own plugin's view provider (ADR 49).
 */
export class UiKindViews {
  constructor(private readonly plugins: Pick<PluginHost, 'activeViews' | 'views'>) {}

  list(): UiKindView[] {
    return this.plugins.activeViews().map(({ pluginId, view }) => ({
      pluginId,
      kind: view.kind,
      modulePath: viewModulePath(pluginId, view),
    }));
  }

  /** The module paths of the views that draw `kinds`. */
  modulesFor(kinds: Iterable<string>): string[] {
    const wanted = new Set(kinds);
    return this.list().flatMap((view) => (wanted.has(view.kind) ? [view.modulePath] : []));
  }

  /**
   * @throws ArgumentError for a kind with no active provider or an unknown request. The answer
   * crosses the socket as JSON: made so here, so a value that is not JSON fails this request.
   */
  async request(pluginId: string, kind: string, method: string, params: unknown): Promise<unknown> {
    const value = await this.plugins.views.request(pluginId, kind, method, params);
    return JSON.parse(JSON.stringify(value ?? null)) as unknown;
  }

  /** A watch of a view provider's topic (`ViewProviderRegistry.watch`). */
  watch(...args: Parameters<PluginHost['views']['watch']>): Disposable {
    return this.plugins.views.watch(...args);
  }
}
