import { ArgumentError, type Disposable } from '@vmark/sdk';
import type { PanelMessage, PanelRequests } from '../../protocol/panel-protocol.js';
import type { UiKindViews } from './kind-view-service.js';

/** A page may watch this many topics at once: a page that never unwatches cannot grow the host without end. */
export const MAX_WATCHES = 32;

type WatchHandlers = {
  [M in 'kindViews.request' | 'kindViews.watch' | 'kindViews.unwatch']: (
    params: PanelRequests[M]['params'],
  ) => PanelRequests[M]['result'] | Promise<PanelRequests[M]['result']>;
};

/**
 * One page's watches of view providers (ADR 49): each pushes to this page alone, and all of them
 * stop when the page goes. The data is made JSON here, as a request's answer is.
 */
export class ViewWatches implements Disposable {
  readonly #watches = new Map<number, Disposable>();

  constructor(
    private readonly views: UiKindViews,
    private readonly send: (message: PanelMessage) => void,
  ) {}

  handlers(): WatchHandlers {
    return {
      'kindViews.request': async ({ pluginId, kind, method, params }) => ({
        value: await this.views.request(pluginId, kind, method, params),
      }),
      'kindViews.watch': ({ pluginId, kind, topic, watchId }) => {
        if (this.#watches.has(watchId)) throw new ArgumentError(`watch ${watchId} is already watching`);
        if (this.#watches.size >= MAX_WATCHES)
          throw new ArgumentError(`a page may watch at most ${MAX_WATCHES} topics at once`);
        const watch = this.views.watch(
          pluginId,
          kind,
          topic,
          (data) =>
            this.send({ type: 'kindViews.data', watchId, data: JSON.parse(JSON.stringify(data ?? null)) }),
          () => {
            this.#watches.delete(watchId);
            this.send({ type: 'kindViews.ended', watchId });
          },
        );
        this.#watches.set(watchId, watch);
        return {};
      },
      'kindViews.unwatch': ({ watchId }) => {
        this.#watches.get(watchId)?.dispose();
        this.#watches.delete(watchId);
        return {};
      },
    };
  }

  dispose(): void {
    for (const watch of [...this.#watches.values()]) watch.dispose();
    this.#watches.clear();
  }
}
