import type { Connection } from '../connection.js';
import { ApprovalDialogs } from '../dialogs/approval-dialog.js';
import type { Shell } from '../shell.js';
import type { Toasts } from '../toasts.js';
import { HistoryPanel } from './history-panel.js';
import { PluginManager } from './plugin-manager.js';
import { PluginPanels } from './plugin-panels.js';
import { SettingsPanel } from './settings-panel.js';

/** The approval dialogs, the plugin manager, the AI edit history and plugins' panels, wired to the window. */
export function startWorkbenchPanels(
  shell: Shell,
  connection: Connection,
  toasts: Toasts,
  refused: (error: unknown) => void,
): void {
  new ApprovalDialogs(document.body, connection, refused);
  new PluginManager(document.body, shell.pluginsButton, connection, refused);
  new SettingsPanel(document.body, shell.settingsButton, connection, refused);
  new HistoryPanel(shell.panelSlot, shell.historyButton, connection, (m) => toasts.show(m, 'info'), refused);
  new PluginPanels(shell, connection, refused);
}
