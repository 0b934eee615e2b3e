import type { Disposable } from '@vmark/sdk';
import { DisposableStore } from '@vmark/sdk';
import { ApprovalBroker } from '../../approvals/approval-broker.js';
import { HostDocumentStore } from '../../documents/document-store.js';
import { FolderWatcher } from '../../documents/folder-watcher.js';
import { CheckpointStore } from '../../history/checkpoint-store.js';
import type { Host } from '../../composition/host.js';
import { SettingsCatalog } from '../../plugins/settings-catalog.js';
import { SettingsStore } from '../../settings/settings-store.js';
import type { CommandMessage, CommandRequests } from '../../protocol/command-protocol.js';
import type { PanelMessage, PanelRequests } from '../../protocol/panel-protocol.js';
import { KeybindingsStore } from '../../settings/keybindings-store.js';
import { HostOptionsToken } from '../../tokens/host-tokens.js';
import { keybindingsPath } from '../../settings/keybindings-file.js';
import { UiApprovals } from './approval-service.js';
import { UiCommandService } from './command-service.js';
import { UiGrants } from './grant-service.js';
import { UiHistory } from './history-service.js';
import { UiKindViews } from './kind-view-service.js';
import { UiPluginPanels } from './plugin-panel-service.js';
import { UiPlugins } from './plugin-service.js';
import { UiSettingsService } from './settings-service.js';

/** The host side of the approval dialogs, the plugin manager and the AI edit history panel. */
export interface PanelServices extends Disposable {
  readonly approvals: UiApprovals;
  /** Settings' list of standing grants. */
  readonly grants: UiGrants;
  readonly plugins: UiPlugins;
  readonly history: UiHistory;
  /** The settings panel. */
  readonly settings: UiSettingsService;
  /** The panels plugins contribute (ADR 20). */
  readonly pluginPanels: UiPluginPanels;
  /** The kind views plugins contribute (ADR 35). */
  readonly kindViews: UiKindViews;
  /** The command palette, the keys and their Settings (ADR 61). */
  readonly commands: UiCommandService;
}

/**
 * The kind views' requests and watches are each page's own (view-watches.ts); so is running a
 * command, which names the page's window (ui-connection.ts).
 */
type PageRequests = 'kindViews.request' | 'kindViews.watch' | 'kindViews.unwatch' | 'commands.run';

type ServiceRequests = PanelRequests & CommandRequests;

export type PanelHandlers = {
  [M in Exclude<keyof ServiceRequests, PageRequests>]: (
    params: ServiceRequests[M]['params'],
  ) => ServiceRequests[M]['result'] | Promise<ServiceRequests[M]['result']>;
};

export function createPanelServices(host: Host): PanelServices {
  const store = new DisposableStore();
  const broker = host.container.get(ApprovalBroker);
  const approvals = store.add(new UiApprovals(broker));
  const grants = store.add(new UiGrants(broker));
  const plugins = store.add(new UiPlugins(host.plugins));
  const history = store.add(
    new UiHistory(
      host.container.get(CheckpointStore),
      host.workbench,
      host.container.get(HostDocumentStore),
      host.container.get(FolderWatcher),
    ),
  );
  const pluginPanels = new UiPluginPanels(host.plugins);
  const settings = store.add(
    new UiSettingsService(
      host.container.get(SettingsStore),
      host.container.get(SettingsCatalog),
      host.plugins,
    ),
  );
  const kindViews = new UiKindViews(host.plugins);
  const commands = store.add(
    new UiCommandService(
      host.plugins,
      new KeybindingsStore(keybindingsPath(host.container.get(HostOptionsToken).home)),
    ),
  );
  return {
    approvals,
    grants,
    plugins,
    history,
    settings,
    pluginPanels,
    kindViews,
    commands,
    dispose: () => store.dispose(),
  };
}

/** One window's pushes: its dialogs, plugin changes and new checkpoints. Dispose it when the window goes. */
export function attachPanels(
  services: PanelServices,
  send: (message: PanelMessage | CommandMessage) => void,
): Disposable {
  const store = new DisposableStore();
  store.add(services.plugins.attach(send));
  store.add(services.history.attach(send));
  store.add(services.settings.attach(send));
  store.add(services.approvals.attach(send));
  store.add(services.grants.attach(send));
  store.add(services.pluginPanels.attach(send));
  store.add(services.commands.attach(send));
  return store;
}

export function panelHandlers({
  approvals,
  grants,
  plugins,
  history,
  settings,
  pluginPanels,
  kindViews,
  commands,
}: PanelServices): PanelHandlers {
  return {
    'approval.answer': ({ askId, answer }) => {
      approvals.answer(askId, answer);
      return {};
    },
    'plugins.list': () => ({ plugins: plugins.list() }),
    'plugins.setEnabled': async ({ id, enabled }) => ({ plugins: await plugins.setEnabled(id, enabled) }),
    'history.list': async ({ filePath }) => ({ checkpoints: await history.list(filePath) }),
    'history.restore': ({ id }) => history.restore(id),
    'settings.list': () => settings.list(),
    'settings.set': ({ key, value }) => settings.set(key, value),
    'settings.reset': ({ key }) => settings.reset(key),
    'grants.list': () => ({ grants: grants.list() }),
    'grants.revoke': (selector) => ({ grants: grants.revoke(selector) }),
    'pluginPanels.list': () => ({ panels: pluginPanels.list() }),
    'kindViews.list': () => ({ views: kindViews.list() }),
    'commands.list': ({ platform }) => commands.list(platform),
    'keybindings.set': ({ id, key, platform }) => commands.set(id, key, platform),
    'keybindings.reset': ({ id, platform }) => commands.reset(id, platform),
    'pluginPanels.request': async ({ pluginId, panelId, method, params }) => ({
      value: await pluginPanels.request(pluginId, panelId, method, params),
    }),
  };
}
