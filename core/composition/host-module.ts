import type { HostInfo } from '@vmark/sdk';
import {
  ApprovalsToken,
  DocumentKindsToken,
  DocumentStoreToken,
  EditorsToken,
  HostInfoToken,
  SettingsToken,
  VaultToken,
  WorkbenchToken,
  WorkspaceFilesToken,
} from '@vmark/sdk';
import { type Container, ContainerModule } from 'inversify';
import { ApprovalBroker } from '../approvals/approval-broker.js';
import { HostDocumentStore } from '../documents/document-store.js';
import { FolderWatcher } from '../documents/folder-watcher.js';
import { WriteAcks } from '../documents/write-acks.js';
import { KindRegistry } from '../documents/kind-registry.js';
import { CheckpointRecorder } from '../history/checkpoint-recorder.js';
import { CheckpointStore } from '../history/checkpoint-store.js';
import { createHostHooks } from '../hooks/host-hooks.js';
import type { HostOptions } from '../tokens/host-options.js';
import { LogHub } from '../log/log-hub.js';
import { ToolRegistry } from '../plugins/tool-registry.js';
import { PluginHost } from '../plugins/plugin-host.js';
import { FocusedEditor } from '../workbench/focused-editor.js';
import { CommandRegistry } from '../plugins/command-registry.js';
import { SettingsCatalog } from '../plugins/settings-catalog.js';
import { SettingsSchemaToken, SettingsStore } from '../settings/settings-store.js';
import { HostVault } from '../vault/host-vault.js';
import { HostWorkbench } from '../workbench/workbench.js';
import { HostWorkspaceFiles } from '../workspace-files/host-workspace-files.js';
import { HostContainerToken, HostHooksToken, HostOptionsToken } from '../tokens/host-tokens.js';

/**
 * The host's wiring. Each service is bound once by class (for the host) and,
 * where plugins may use it, once more by its SDK token pointing at the same instance.
 */
export function hostModule(container: Container, options: HostOptions, info: HostInfo): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bind(HostContainerToken).toConstantValue(container);
    bind(HostOptionsToken).toConstantValue(options);
    bind(HostInfoToken).toConstantValue(info);
    bind(HostHooksToken).toConstantValue(createHostHooks());
    bind(LogHub).toConstantValue(new LogHub());

    bind(KindRegistry).toSelf().inSingletonScope();
    bind(DocumentKindsToken).toService(KindRegistry);
    bind(HostVault).toSelf().inSingletonScope();
    bind(VaultToken).toService(HostVault);
    bind(FolderWatcher).toSelf().inSingletonScope();
    bind(WriteAcks).toSelf().inSingletonScope();
    bind(HostDocumentStore).toSelf().inSingletonScope();
    bind(DocumentStoreToken).toService(HostDocumentStore);
    bind(HostWorkbench).toSelf().inSingletonScope();
    bind(WorkbenchToken).toService(HostWorkbench);
    bind(HostWorkspaceFiles).toSelf().inSingletonScope();
    bind(WorkspaceFilesToken).toService(HostWorkspaceFiles);
    bind(FocusedEditor).toSelf().inSingletonScope();
    bind(EditorsToken).toService(FocusedEditor);

    bind(ApprovalBroker).toSelf().inSingletonScope();
    bind(ApprovalsToken).toService(ApprovalBroker);
    bind(SettingsCatalog).toSelf().inSingletonScope();
    bind(SettingsSchemaToken).toService(SettingsCatalog);
    bind(SettingsStore).toSelf().inSingletonScope();
    bind(SettingsToken).toService(SettingsStore);

    bind(CheckpointStore).toSelf().inSingletonScope();
    bind(CheckpointRecorder).toSelf().inSingletonScope();

    bind(ToolRegistry).toSelf().inSingletonScope();
    bind(PluginHost).toSelf().inSingletonScope();
    bind(CommandRegistry).toSelf().inSingletonScope();
  });
}
