import type { KindViewApi } from '@vmark/sdk';
import type { Connection } from '../connection.js';

/** A custom view's line to its own plugin's view provider (ADR 49): `api.request` and `api.subscribe`. */
export type ViewChannel = Pick<KindViewApi, 'request' | 'subscribe'>;

/** The page picks its watches' ids: the host's first push may come before its reply. */
let nextWatchId = 1;

export function viewChannel(connection: Connection, pluginId: string, kind: string): ViewChannel {
  return {
    request: async (method, params) =>
      (await connection.request('kindViews.request', { pluginId, kind, method, params })).value,
    subscribe: (topic, listener) => {
      const watchId = nextWatchId++;
      let stopped = false;
      const off = connection.onViewData((message) => {
        if (message.watchId !== watchId) return;
        if (message.ended) off();
        else listener(message.data);
      });
      const watching = connection.request('kindViews.watch', { pluginId, kind, topic, watchId }).then(
        () => true,
        (error: unknown) => {
          console.error(`The view could not watch "${topic}"`, error);
          off();
          return false;
        },
      );
      return () => {
        if (stopped) return;
        stopped = true;
        off();
        // Stopped before the host answered too: the watch is stopped once it has started.
        void watching.then((started) => {
          if (started) void connection.request('kindViews.unwatch', { watchId }).catch(() => undefined);
        });
      };
    },
  };
}
