import path from 'node:path';
import type { Vault } from '@vmark/sdk';
import type { HostDocumentStore } from '../../documents/document-store.js';
import type { HostWorkbench } from '../../workbench/workbench.js';
import type { UiConflict, UiState } from '../../protocol/protocol.js';

/** What one page shows of the workbench: its own window (tabs, rail, focus) and the workspace roots. */
export function uiState(
  workbench: HostWorkbench,
  documents: HostDocumentStore,
  vault: Vault,
  windowLabel = 'main',
): UiState {
  const window = workbench.state().find((w) => w.label === windowLabel);
  return {
    window: {
      label: windowLabel,
      focused: window?.focused ?? false,
      workspaces: workbench.hasWindow(windowLabel)
        ? workbench.workspaces(windowLabel).map(({ id, root }) => ({ id, path: root, name: nameOf(root) }))
        : [],
      activeWorkspaceInstanceId: window?.activeWorkspaceInstanceId ?? null,
      tabs: [
        ...(window?.tabs ?? []).map(({ id, title, filePath, kind, dirty, active, visible }) => ({
          id,
          title,
          filePath,
          kind,
          dirty,
          active,
          visible,
          ...conflictOf(workbench, documents, id),
        })),
        ...workbench.providedLabels(windowLabel).map(({ state, label, closable }) => ({
          id: state.id,
          title: label.title,
          filePath: null,
          kind: state.kind,
          dirty: false,
          // The person picks a provided tab in their own page; the host's active tab stays a document.
          active: false,
          visible: true,
          provided: { loading: label.loading, badge: label.badge, icon: label.icon, closable },
        })),
      ],
    },
    roots: vault.roots().map((root) => ({ path: root, name: nameOf(root) })),
  };
}

function conflictOf(
  workbench: HostWorkbench,
  documents: HostDocumentStore,
  tabId: string,
): { conflict?: UiConflict } {
  const conflict = documents.get(workbench.resolveTab(tabId).documentId).conflict;
  return conflict ? { conflict: { reason: conflict.reason, diskSha256: conflict.diskSha256 } } : {};
}

function nameOf(root: string): string {
  return path.basename(root) || root;
}
