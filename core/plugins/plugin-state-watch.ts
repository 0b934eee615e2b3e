import { watch, type FSWatcher } from 'node:fs';
import type { Disposable } from '@vmark/sdk';
import { PLUGIN_STATE_FILE } from './plugin-state.js';

/** Calls `onChange` shortly after the enabled state in `home` changes on disk (`vmark plugins enable`, another host). */
export class PluginStateWatch implements Disposable {
  readonly #watcher: FSWatcher;
  #timer: NodeJS.Timeout | undefined;

  constructor(home: string, onChange: () => void) {
    // The folder, not the file: the state file is replaced by rename on every write.
    this.#watcher = watch(home, (_event, filename) => {
      if (filename !== PLUGIN_STATE_FILE) return;
      clearTimeout(this.#timer);
      this.#timer = setTimeout(onChange, 50);
    });
    this.#watcher.unref();
  }

  dispose(): void {
    this.#watcher.close();
    clearTimeout(this.#timer);
  }
}
