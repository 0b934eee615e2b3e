import type { HostHooks, PluginHooks, WriteProposal } from '@vmark/sdk';
import type { SyncHook } from 'tapable';
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
      const hook = hooks[name];
      const tapFn = (proposal: WriteProposal) => Promise.resolve(fn(proposal));
      return tapDisposable(hook, () => hook.tapPromise(pluginId, tapFn), tapFn);
    },
  };
}
