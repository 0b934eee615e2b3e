import type { Disposable, ViewProvider } from '@vmark/sdk';
import { ArgumentError } from '@vmark/sdk';

/**
 * The host halves of the active plugins' custom kind views (ADR 49), by plugin and kind. A
 * view's request or watch reaches only the provider of the plugin and kind it names, so one
 * plugin's view can never call another's. A watch ends when its page stops it, when the page
 * goes, or when the provider goes (its plugin turned off): whichever comes first.
 */
export class ViewProviderRegistry {
  readonly #providers = new Map<string, ViewProvider>();
  /** Each live watch's cleanup, by the provider it belongs to. */
  readonly #watches = new Map<ViewProvider, Set<() => void>>();

  add(pluginId: string, provider: ViewProvider): Disposable {
    const key = keyOf(pluginId, provider.kind);
    if (this.#providers.has(key))
      throw new Error(`plugin "${pluginId}" registers a view provider for kind "${provider.kind}" twice`);
    this.#providers.set(key, provider);
    this.#watches.set(provider, new Set());
    return {
      dispose: () => {
        if (this.#providers.get(key) === provider) this.#providers.delete(key);
        const watches = this.#watches.get(provider) ?? new Set();
        this.#watches.delete(provider);
        for (const stop of [...watches]) stop();
      },
    };
  }

  /**
   * Runs one of the provider's actions.
   * @throws ArgumentError when the kind has no provider or the provider no such action.
   */
  request(pluginId: string, kind: string, method: string, params: unknown): Promise<unknown> {
    // Run in a promise: an action that throws at once fails the request as one that rejects does.
    return Promise.resolve().then(() => {
      const actions = this.#provider(pluginId, kind).actions ?? {};
      // Own properties only: `toString` or `__proto__` must not reach Object.prototype.
      const action = Object.hasOwn(actions, method) ? actions[method] : undefined;
      if (!action) throw new ArgumentError(`The view of "${pluginId}/${kind}" has no request "${method}"`);
      return action(params);
    });
  }

  /**
   * Starts a watch of `topic`; `send` gets what the provider pushes until the returned
   * disposable is disposed, or the provider goes (then `ended` is called).
   * @throws ArgumentError when the kind has no provider that watches; what `watch` throws.
   */
  watch(
    pluginId: string,
    kind: string,
    topic: string,
    send: (data: unknown) => void,
    ended: () => void,
  ): Disposable {
    const provider = this.#provider(pluginId, kind);
    if (provider.watch === undefined)
      throw new ArgumentError(`The view of "${pluginId}/${kind}" has nothing to watch`);
    let live = true;
    const cleanup = provider.watch(topic, (data) => {
      if (live) send(data);
    });
    const watches = this.#watches.get(provider)!;
    const stop = (): void => {
      if (!live) return;
      live = false;
      watches.delete(stop);
      try {
        cleanup?.();
      } finally {
        ended();
      }
    };
    watches.add(stop);
    return {
      dispose: () => {
        // Stopped by its page: no need to tell the page.
        ended = () => undefined;
        stop();
      },
    };
  }

  #provider(pluginId: string, kind: string): ViewProvider {
    const provider = this.#providers.get(keyOf(pluginId, kind));
    if (!provider) throw new ArgumentError(`Plugin "${pluginId}" has no active view provider for "${kind}"`);
    return provider;
  }
}

function keyOf(pluginId: string, kind: string): string {
  return `${pluginId}/${kind}`;
}
