/**
 * The command palette's, the key dispatcher's and the keybindings settings' messages (ADR 61):
 * types only, merged into `protocol.ts`'s `Requests` and `ServerMessage`.
 */
import type { Platform } from './key-string.js';

/** One command as the palette and Settings show it, with the key in force for the page's platform. */
export interface UiCommand {
  readonly id: string;
  readonly title: string;
  /** What the palette prefixes it with: its declared category, else its plugin's name. */
  readonly category: string;
  /** The plugin that contributes it, `null` for the editor's own. */
  readonly pluginId: string | null;
  /**
   * Where it runs: the editor's own in the page, a plugin's in the host (`commands.run`) unless it
   * declares `runsIn: page` — then its text view runs it on the shown editor (ADR 72).
   */
  readonly runsIn: 'page' | 'host';
  /** The key in force, canonical ("Ctrl+Shift+P"), or null for none. */
  readonly key: string | null;
  /** The key it has without the person's change. */
  readonly defaultKey: string | null;
  /** keybindings.json changes it (a key, or none where it has a default). */
  readonly changed: boolean;
  readonly when: string | null;
}

export interface UiCommands {
  /** `$VMARK_HOME/keybindings.json`. */
  readonly file: string;
  /** The editor's own first, then each running plugin's, in activation order. */
  readonly commands: readonly UiCommand[];
  /** Keys bound to more than one command, each with those commands' ids. */
  readonly conflicts: readonly { readonly key: string; readonly commandIds: readonly string[] }[];
  /** Why the file or an entry of it is not used, in words for the person. */
  readonly problems: readonly string[];
}

export interface CommandRequests {
  'commands.list': { params: { platform: Platform }; result: UiCommands };
  /** Runs a plugin's command in the host; `note` is what its handler said, for a toast. */
  'commands.run': { params: { id: string; tabId: string | null }; result: { note: string | null } };
  /**
   * Binds `key` to the command (`null`: no key, its default unbound) in keybindings.json; refused,
   * and nothing written, for an unknown command, a malformed key, or a file that is not usable.
   */
  'keybindings.set': { params: { id: string; key: string | null; platform: Platform }; result: UiCommands };
  /** Removes the command's entry from keybindings.json: its default key applies again. */
  'keybindings.reset': { params: { id: string; platform: Platform }; result: UiCommands };
}

/** The commands or their keys changed (a plugin turned on or off, a key rebound in any window). */
export type CommandMessage = { readonly type: 'commands.changed' };
