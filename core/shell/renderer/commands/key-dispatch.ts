import { keyStringOf } from '../../../protocol/key-string.js';
import type { PageCommands } from './page-commands.js';

/**
 * The person's keys: a press bound to a command that applies now runs it, before the editor or
 * the page sees the press (the capture phase), so a key rebound in Settings is the only key that
 * runs it. Presses bound to nothing go on as they came.
 */
export function dispatchKeys(target: Window, commands: PageCommands): void {
  target.addEventListener(
    'keydown',
    (event) => {
      if (event.isComposing) return;
      const key = keyStringOf(event);
      const command = key === null ? undefined : commands.forKey(key);
      if (command === undefined) return;
      event.preventDefault();
      event.stopPropagation();
      void commands.run(command.id);
    },
    { capture: true },
  );
}
