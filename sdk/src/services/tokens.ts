import type { ServiceIdentifier } from 'inversify';
import type { Approvals } from './approvals.js';
import type { DocumentKinds, DocumentStore } from './documents.js';
import type { Editors } from './editors.js';
import type { HostInfo } from './host-info.js';
import type { HostLog } from './host-log.js';
import type { Settings } from './settings.js';
import type { Vault } from './vault.js';
import type { Workbench } from './workbench.js';
import type { WorkspaceFiles } from './workspace-files.js';

/**
 * DI tokens of the host services a plugin may use. `Symbol.for` keeps them equal
 * across copies of the SDK (a user plugin may bring its own).
 */
export const HostInfoToken: ServiceIdentifier<HostInfo> = Symbol.for('vmark.HostInfo');
export const VaultToken: ServiceIdentifier<Vault> = Symbol.for('vmark.Vault');
export const WorkbenchToken: ServiceIdentifier<Workbench> = Symbol.for('vmark.Workbench');
export const DocumentStoreToken: ServiceIdentifier<DocumentStore> = Symbol.for('vmark.DocumentStore');
export const DocumentKindsToken: ServiceIdentifier<DocumentKinds> = Symbol.for('vmark.DocumentKinds');
export const ApprovalsToken: ServiceIdentifier<Approvals> = Symbol.for('vmark.Approvals');
export const SettingsToken: ServiceIdentifier<Settings> = Symbol.for('vmark.Settings');
export const EditorsToken: ServiceIdentifier<Editors> = Symbol.for('vmark.Editors');
/** Each plugin's own: its messages are named after it (`vmark: <plugin id>: ...` on stderr). */
export const HostLogToken: ServiceIdentifier<HostLog> = Symbol.for('vmark.HostLog');
/** The workspace roots' file lists, kept current (host API 1.11.0, ADR 76). */
export const WorkspaceFilesToken: ServiceIdentifier<WorkspaceFiles> = Symbol.for('vmark.WorkspaceFiles');
