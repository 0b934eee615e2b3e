import type { HostHooks, PluginHooks } from '@vmark/sdk';
import type { AsyncSeriesWaterfallHook, SyncHook } from 'tapable';
import { tapDisposable } from './untap.js';

/** The facade a plugin taps through: taps are named after the plugin and disposable. */
export function pluginHooks(hooks: HostHooks, pluginId: string): PluginHooks {
  return {
    tap(name, fn) {
      const hook = hooks[name] as SyncHook<[unknown]>;
      const tapFn = fn as (event: unknown) => void;
      return tapDisposable(hook, () => hook.tap(pluginId, tapFn), tapFn);
    },
    tapWaterfall(name, fn) {
      const hook = hooks[name] as AsyncSeriesWaterfallHook<[unknown]>;
      const run = fn as (proposal: unknown) => unknown;
      const tapFn = (proposal: unknown) => Promise.resolve(run(proposal));
      return tapDisposable(hook, () => hook.tapPromise(pluginId, tapFn), tapFn);
    },
  };
}
