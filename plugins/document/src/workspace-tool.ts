import type { Approvals, DocumentStore, Settings, ToolDefinition, Vault, Workbench } from '@vmark/sdk';
import {
  defineAction,
  defineTool,
  DomainError,
  oneOf,
  optionalBoolean,
  optionalId,
  pathArg,
  Refusal,
  requiredId,
  z,
} from '@vmark/sdk';

export interface WorkspaceToolServices {
  readonly workbench: Workbench;
  readonly documents: DocumentStore;
  readonly vault: Vault;
  readonly approvals: Approvals;
  readonly settings: Settings;
}

/** Settings → Integrations → "Auto-approve edits": off by default. */
const AUTO_APPROVE_EDITS = 'integrations.autoApproveEdits';

export function workspaceTool(services: WorkspaceToolServices): ToolDefinition {
  const { workbench, documents, vault, approvals, settings } = services;
  return defineTool({
    name: 'workspace',
    title: 'VMark Workspace and Files',
    description:
      'File and window lifecycle, never document content. new → {tabId}; open a file as a background tab → ' +
      '{tabId, workspaceInstanceId, activationChanged, workspaceSwitched}; open_workspace asks the person first ' +
      '(retry the same call after they approve); save → {filePath, revision}; save_as → {revision} (a new ' +
      'location needs "Auto-approve edits"); close → {closed} or {closed: false, reason: "DIRTY"}; switch_tab makes ' +
      'a tab visible; focus_window. Files are limited to the open workspaces and the folders of open documents.',
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    actions: {
      new: defineAction({
        args: {
          kind: oneOf('kind', ['markdown', 'yaml-workflow']).optional(),
          windowLabel: optionalId('windowLabel', 'window'),
        },
        run: ({ kind, windowLabel }) => workbench.newTab({ kind, windowLabel }),
      }),
      open: defineAction({
        args: { filePath: pathArg('filePath'), windowLabel: optionalId('windowLabel', 'window') },
        run: ({ filePath, windowLabel }) => workbench.openFile(filePath, { windowLabel }),
      }),
      open_workspace: defineAction({
        args: { folderPath: pathArg('folderPath') },
        run: async ({ folderPath }, call) => {
          // The person is asked about the folder that would really open, links resolved.
          const folder = await vault.canonicalFolder(folderPath);
          const outcome = await approvals.request(
            { operation: 'open_workspace', subject: folder, grantable: false },
            call,
          );
          if (outcome.decision === 'allowed') {
            const { workspaceInstanceId } = await workbench.openWorkspace(folder);
            return { folderPath: folder, workspaceInstanceId };
          }
          const structured = { needsApproval: true, folderPath: folder, requestId: outcome.requestId };
          if (outcome.decision === 'denied') {
            throw new Refusal(
              `the user declined to open workspace '${folder}'. Do not retry unless they ask you to; the same ` +
                'call keeps failing until they approve it.',
              { ...structured, denied: true },
            );
          }
          throw new Refusal(
            `approval required to open workspace '${folder}'. Ask the user to approve opening this folder in ` +
              `VMark (in a terminal: vmark approvals allow ${outcome.requestId}), then retry the SAME call. ` +
              'Do not retry before they have approved — a retry only re-raises the same request.',
            structured,
          );
        },
      }),
      save: defineAction({
        args: { tabId: optionalId('tabId', 'tab') },
        run: async ({ tabId }) => {
          const saved = await documents.save(workbench.resolveTab(tabId).documentId);
          return { filePath: saved.filePath, revision: saved.revision };
        },
      }),
      save_as: defineAction({
        args: { tabId: optionalId('tabId', 'tab'), filePath: pathArg('filePath') },
        run: async ({ tabId, filePath }) => {
          const tab = workbench.resolveTab(tabId);
          const target = await vault.resolve(filePath);
          const own = documents.get(tab.documentId).filePath === target;
          if (!own && !settings.get(AUTO_APPROVE_EDITS, z.boolean(), false)) {
            throw new DomainError(
              'APPROVAL_REQUIRED',
              `Saving to a new location (${JSON.stringify(target)}) needs approval: "Auto-approve edits" ` +
                '(Settings → Integrations) is off. Ask the user to save it there, or to turn the setting on.',
              { filePath: target },
            );
          }
          const { revision } = await workbench.saveAs(tab.id, target);
          return { revision };
        },
      }),
      close: defineAction({
        args: { tabId: requiredId('tabId'), force: optionalBoolean('force') },
        run: ({ tabId, force }) => workbench.close(tabId, { force }),
      }),
      switch_tab: defineAction({
        args: { tabId: requiredId('tabId') },
        run: ({ tabId }) => workbench.switchTab(tabId),
      }),
      focus_window: defineAction({
        args: { windowLabel: requiredId('windowLabel') },
        run: ({ windowLabel }) => {
          workbench.focusWindow(windowLabel);
          return { windowLabel, focused: true };
        },
      }),
    },
  });
}
