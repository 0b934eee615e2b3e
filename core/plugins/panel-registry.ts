import type { Disposable, PanelProvider, PanelRegistration } from '@vmark/sdk';
import { ArgumentError } from '@vmark/sdk';

/** A panel refresh asked for by its provider: every open copy of the panel loads again. */
export interface PanelRefresh {
  readonly pluginId: string;
  readonly panelId: string;
}

/**
 * The host halves of the active plugins' panels, by plugin and panel id. A
 * request reaches only the provider of the plugin and panel it names, so one
 * plugin's page can never call another's provider.
 */
export class PanelRegistry {
  readonly #providers = new Map<string, PanelProvider>();
  readonly #refreshListeners = new Set<(refresh: PanelRefresh) => void>();

  add(pluginId: string, provider: PanelProvider): PanelRegistration {
    const key = keyOf(pluginId, provider.id);
    if (this.#providers.has(key))
      throw new Error(`plugin "${pluginId}" registers panel "${provider.id}" twice`);
    this.#providers.set(key, provider);
    let live = true;
    return {
      refresh: () => {
        if (!live) return;
        for (const listener of [...this.#refreshListeners]) listener({ pluginId, panelId: provider.id });
      },
      dispose: () => {
        live = false;
        if (this.#providers.get(key) === provider) this.#providers.delete(key);
      },
    };
  }

  has(pluginId: string, panelId: string): boolean {
    return this.#providers.has(keyOf(pluginId, panelId));
  }

  /**
   * Runs `load` or one of the provider's actions.
   * @throws ArgumentError when the panel has no provider or the provider no such request.
   */
  request(pluginId: string, panelId: string, method: string, params: unknown): Promise<unknown> {
    // Run in a promise: a provider that throws at once fails the request as one that rejects does.
    return Promise.resolve().then(() => this.#run(pluginId, panelId, method, params));
  }

  #run(pluginId: string, panelId: string, method: string, params: unknown): unknown {
    const provider = this.#providers.get(keyOf(pluginId, panelId));
    if (!provider) throw new ArgumentError(`Plugin "${pluginId}" has no active panel "${panelId}"`);
    if (method === 'load') return provider.load(params);
    // Own properties only: `toString` or `__proto__` must not reach Object.prototype.
    const actions = provider.actions ?? {};
    const action = Object.hasOwn(actions, method) ? actions[method] : undefined;
    if (!action) throw new ArgumentError(`Panel "${pluginId}/${panelId}" has no request "${method}"`);
    return action(params);
  }

  onRefresh(listener: (refresh: PanelRefresh) => void): Disposable {
    this.#refreshListeners.add(listener);
    return { dispose: () => this.#refreshListeners.delete(listener) };
  }
}

function keyOf(pluginId: string, panelId: string): string {
  return `${pluginId}/${panelId}`;
}
