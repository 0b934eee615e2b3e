import type { Disposable } from '@vmark/sdk';
import type { Hook } from 'tapable';

/** The part of tapable's Hook that removing a tap needs; `_resetCompilation` is tapable's own. */
interface ResettableHook {
  taps: { fn: unknown }[];
  _resetCompilation(): void;
}

/**
 * Tapable has no `untap`: taps live for the life of a webpack compiler. A plugin
 * can be disabled at run time, so its tap is removed from the list and the hook's
 * compiled call is reset, exactly as tapable does when a tap is added.
 */
export function tapDisposable<T, R>(hook: Hook<T, R>, tap: () => void, fn: unknown): Disposable {
  tap();
  return {
    dispose() {
      const resettable = hook as unknown as ResettableHook;
      const index = resettable.taps.findIndex((t) => t.fn === fn);
      if (index < 0) return;
      resettable.taps.splice(index, 1);
      resettable._resetCompilation();
    },
  };
}
