/*
 * The editor's own commands (ADR 61): every action of the page's UI, run in the page. Shared by
 * the page, which handles them, and the host, which lists them beside the plugins' commands so
 * that one table of keys (defaults, the person's keybindings.json, conflicts) covers them all.
 * Ids are `vmark.<name>`: a plugin with the id `vmark` may contribute none
 * (plugins/editor-command-problems.ts).
 */

/** A command as a manifest's `contributes.editorCommands` declares one. */
export interface CommandDeclaration {
  readonly id: string;
  readonly title: string;
  readonly category?: string;
  /** The default key on every platform (a key string, `Mod` for Cmd/Ctrl). */
  readonly key?: string;
  /** The default key on macOS, where it differs. */
  readonly mac?: string;
  readonly when?: string;
  /** A plugin's command: run by its host handler (the default) or by its text view in the page (ADR 72). */
  readonly runsIn?: 'host' | 'page';
}

export const COMMAND_PALETTE = 'vmark.commandPalette';

export const BUILTIN_COMMANDS: readonly CommandDeclaration[] = [
  { id: COMMAND_PALETTE, title: 'Show all commands', category: 'View', key: 'Mod+Shift+P' },
  { id: 'vmark.quickOpen', title: 'Go to file…', category: 'File', key: 'Mod+P' },
  { id: 'vmark.search', title: 'Search in files…', category: 'Search', key: 'Mod+Shift+F' },
  { id: 'vmark.find', title: 'Find in file…', category: 'Edit', key: 'Mod+F', when: 'activeKind' },
  // Cmd+H hides the application on macOS before the page sees it.
  {
    id: 'vmark.replace',
    title: 'Replace in file…',
    category: 'Edit',
    key: 'Mod+H',
    mac: 'Mod+Shift+H',
    when: 'activeKind',
  },
  { id: 'vmark.newNote', title: 'New note', category: 'File', key: 'Mod+N' },
  { id: 'vmark.newFolder', title: 'New folder', category: 'File' },
  { id: 'vmark.revealFile', title: 'Reveal active file in the file list', category: 'File' },
  { id: 'vmark.save', title: 'Save', category: 'File', key: 'Mod+S', when: 'activeKind' },
  { id: 'vmark.closeTab', title: 'Close tab', category: 'File', key: 'Mod+W', when: 'activeKind' },
  { id: 'vmark.nextTab', title: 'Next tab', category: 'View', key: 'Ctrl+Tab' },
  { id: 'vmark.previousTab', title: 'Previous tab', category: 'View', key: 'Ctrl+Shift+Tab' },
  { id: 'vmark.mode.live', title: 'Switch to Live preview', category: 'Editor' },
  { id: 'vmark.mode.source', title: 'Switch to Source', category: 'Editor' },
  { id: 'vmark.mode.toggle', title: 'Toggle Live preview / Source', category: 'Editor', key: 'Mod+E' },
  { id: 'vmark.history.toggle', title: 'Toggle AI edit history', category: 'View' },
  { id: 'vmark.plugins.open', title: 'Open the plugin manager', category: 'View' },
  { id: 'vmark.settings.open', title: 'Open Settings', category: 'View', key: 'Mod+,' },
  { id: 'vmark.keybindings.open', title: 'Open keyboard shortcuts', category: 'View' },
];

/** The command that shows or hides a plugin's panel: a command of the editor's, named after the panel. */
export function panelToggleId(pluginId: string, panelId: string): string {
  return `vmark.panel.${pluginId}.${panelId}`;
}
