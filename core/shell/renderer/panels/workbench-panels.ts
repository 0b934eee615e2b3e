import type { PageCommands } from '../commands/page-commands.js';
import type { Connection } from '../connection.js';
import { ApprovalDialogs } from '../dialogs/approval-dialog.js';
import type { Shell } from '../shell.js';
import type { PageLink } from '../page-link.js';
import type { Toasts } from '../toasts.js';
import { HistoryPanel } from './history-panel.js';
import { KeybindingsSection } from './keybindings-section.js';
import { PluginManager } from './plugin-manager.js';
import { PluginPanels } from './plugin-panels.js';
import { SettingsPanel } from './settings-panel.js';

/**
 * The approval dialogs, the plugin manager, the settings, the AI edit history and plugins'
 * panels, wired to the window; each toolbar button runs its command (ADR 61).
 */
export function startWorkbenchPanels(
  shell: Shell,
  connection: Connection,
  toasts: Toasts,
  commands: PageCommands,
  refused: (error: unknown) => void,
  link: PageLink,
): void {
  new ApprovalDialogs(document.body, connection, refused);
  const plugins = new PluginManager(document.body, shell.pluginsButton, connection, refused);
  const keybindings = new KeybindingsSection(commands, connection, refused);
  const settings = new SettingsPanel(document.body, shell.settingsButton, connection, keybindings, refused);
  const history = new HistoryPanel(
    shell.panelSlot,
    shell.historyButton,
    connection,
    (m) => toasts.show(m, 'info'),
    refused,
  );
  commands.handle('vmark.plugins.open', () => plugins.open());
  commands.handle('vmark.settings.open', () => settings.open());
  commands.handle('vmark.keybindings.open', () => settings.openKeybindings());
  commands.handle('vmark.history.toggle', () => history.toggle());
  commands.bind(shell.pluginsButton, 'vmark.plugins.open');
  commands.bind(shell.settingsButton, 'vmark.settings.open');
  commands.bind(shell.historyButton, 'vmark.history.toggle');
  new PluginPanels(shell, connection, commands, refused, link);
}
