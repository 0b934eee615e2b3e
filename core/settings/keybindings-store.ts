import { DomainError, SerialQueue } from '@vmark/sdk';
import { withFileLock } from '../vault/file-lock.js';
import type { KeyOverrides } from './keybindings.js';
import { type LoadedOverrides, loadKeyOverrides, saveKeyOverrides } from './keybindings-file.js';

/**
 * The person's keybindings, `$VMARK_HOME/keybindings.json` (ADR 54, 61), read on every call (a
 * change by hand applies at once) and changed one at a time, each change reading the file afresh
 * under its lock, so two windows rebinding at once both land. A file that is not usable is never
 * overwritten: the change is refused with the file's problem, and the defaults stay in force.
 */
export class KeybindingsStore {
  readonly #writes = new SerialQueue();

  constructor(readonly file: string) {}

  load(): Promise<LoadedOverrides> {
    return loadKeyOverrides(this.file);
  }

  /**
   * Replaces the overrides with `change(current)`, in one atomic write.
   * @throws DomainError `READ_ONLY` when the file is not usable; it is left as it is.
   */
  update(change: (current: KeyOverrides) => KeyOverrides): Promise<void> {
    return this.#writes.run(() =>
      withFileLock(
        `${this.file}.lock`,
        async () => {
          const { overrides, problem } = await this.load();
          if (problem !== undefined)
            throw new DomainError(
              'READ_ONLY',
              `${problem}. Nothing was changed; fix or remove the file first`,
            );
          await saveKeyOverrides(this.file, change(overrides));
        },
        { timeoutMs: 5_000, staleMs: 10_000 },
      ),
    );
  }
}
