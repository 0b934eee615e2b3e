import { keyStringOf, parseKeyString } from '../../../protocol/key-string.js';

/**
 * TEMPORARY KEY HANDLER (ADR 62): Ctrl/Cmd+P opens quick open. It stands in for the command
 * registry being built beside it (issue 19 item 1): at the merge this becomes a command with
 * the default key `Mod+P`, and this file goes.
 */
export function bindQuickOpenKey(target: Document, open: () => void): void {
  const platform = /mac/i.test(navigator.platform) ? 'mac' : 'other';
  const parsed = parseKeyString('Mod+P', platform);
  if (!('key' in parsed)) throw new Error(parsed.problem);
  target.addEventListener(
    'keydown',
    (event) => {
      if (keyStringOf(event) !== parsed.key) return;
      // The browser's own Ctrl+P prints the page.
      event.preventDefault();
      event.stopPropagation();
      open();
    },
    true,
  );
}
