import type {
  Approvals,
  ChangeOrigin,
  DocumentStore,
  FolderProbe,
  SaveAsTarget,
  Settings,
  ToolCall,
  ToolDefinition,
  Vault,
  Workbench,
} from '@vmark/sdk';
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

/** What the person is told about a path that is no folder: asked like any other, so that probing tells the client nothing. */
const CANNOT_OPEN: Readonly<Record<Exclude<FolderProbe['state'], 'folder'>, string>> = {
  'not-folder':
    'this is not a folder (it is a file or another kind of entry), so it cannot be opened, even if allowed.',
  missing: 'nothing exists at this path, so it cannot be opened, even if allowed.',
  unreadable:
    'VMark may not read this path (no permission, or a loop of links), so it cannot be opened, even if allowed.',
  protected:
    "this path leads into VMark's own records (a .vmark folder or VMark's data folder), which AI clients may " +
    'never reach, so it cannot be opened, even if allowed.',
};

/** What the client is told once a person allowed a path that is no folder. */
const NOT_OPENED: Readonly<Record<Exclude<FolderProbe['state'], 'folder'>, string>> = {
  'not-folder': 'is not a folder',
  missing: 'does not exist',
  unreadable: 'cannot be read',
  protected: "leads into VMark's own records (a .vmark folder or VMARK_HOME)",
};

/** Settings → Integrations → "Auto-approve edits": off by default. It covers new files, never replacing one. */
const AUTO_APPROVE_EDITS = 'integrations.autoApproveEdits';

export function workspaceTool(services: WorkspaceToolServices): ToolDefinition {
  const { workbench, documents, vault, approvals, settings } = services;

  /**
   * Saving over a file that is there needs a person, each time, whatever the settings: they are
   * shown the file (canonical path, size, hash) that the save replaces, and the host replaces
   * exactly that file or nothing; its text stays in the AI edit history.
   * @throws DomainError `APPROVAL_REQUIRED` until a person has allowed it.
   */
  const confirmReplacing = async (
    path: string,
    replaces: NonNullable<SaveAsTarget['replaces']>,
    call: ToolCall,
  ): Promise<void> => {
    const outcome = await approvals.request(
      {
        operation: 'save_as',
        subject: path,
        detail:
          `It replaces the file there now (${replaces.bytes} bytes, SHA-256 ${replaces.sha256}); VMark keeps ` +
          'its text in the AI edit history, from which `vmark checkpoints restore` puts it back.',
        grantable: false,
      },
      call,
    );
    if (outcome.decision === 'allowed') return;
    const details = { filePath: path, replaces: true, requestId: outcome.requestId };
    if (outcome.decision === 'denied') {
      throw new DomainError(
        'APPROVAL_REQUIRED',
        `The user declined replacing ${JSON.stringify(path)} with this document. Do not retry unless they ask ` +
          'you to: the same call keeps failing until they approve it. Choose another filePath instead.',
        { ...details, denied: true },
      );
    }
    throw new DomainError(
      'APPROVAL_REQUIRED',
      `${JSON.stringify(path)} exists: saving over it replaces it, which needs the user's approval. Ask them ` +
        `to approve it in VMark (in a terminal: vmark approvals allow ${outcome.requestId}), then retry the SAME ` +
        'call. Do not retry before they have approved — a retry only re-raises the same request.',
      details,
    );
  };

  return defineTool({
    name: 'workspace',
    title: 'VMark Workspace and Files',
    description:
      'File and window lifecycle, never document content. new → {tabId}; open a file as a background tab → ' +
      '{tabId, workspaceInstanceId, activationChanged, workspaceSwitched}; open_workspace asks the person first ' +
      '(retry the same call after they approve); save → {filePath, revision}; save_as → {revision} (a new ' +
      'location needs "Auto-approve edits"; saving over an existing file asks the person each time, like ' +
      'open_workspace, and keeps its old text restorable); close → {closed} or {closed: false, reason: "DIRTY"}; switch_tab makes ' +
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
          // The person sees what would really open (links resolved, and whether it can); until a
          // person has answered, the client hears only its own folderPath, whatever the disk holds.
          const target = await vault.probeFolder(folderPath);
          const outcome = await approvals.request(
            {
              operation: 'open_workspace',
              subject: target.path,
              ...(target.path === folderPath ? {} : { requested: folderPath }),
              ...(target.state === 'folder' ? {} : { warning: CANNOT_OPEN[target.state] }),
              grantable: false,
            },
            call,
          );
          if (outcome.decision === 'allowed') {
            if (target.state !== 'folder') {
              throw new DomainError(
                'INVALID_PATH',
                `Path ${JSON.stringify(folderPath)} ${NOT_OPENED[target.state]}: it cannot be opened as a workspace`,
              );
            }
            const { workspaceInstanceId } = await workbench.openWorkspace(target.path);
            return { folderPath: target.path, workspaceInstanceId };
          }
          const structured = { needsApproval: true, folderPath, requestId: outcome.requestId };
          if (outcome.decision === 'denied') {
            throw new Refusal(
              `the user declined to open workspace '${folderPath}'. Do not retry unless they ask you to; the same ` +
                'call keeps failing until they approve it.',
              { ...structured, denied: true },
            );
          }
          throw new Refusal(
            `approval required to open workspace '${folderPath}'. Ask the user to approve opening this folder in ` +
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
        run: async ({ tabId, filePath }, call) => {
          const tab = workbench.resolveTab(tabId);
          const confirm = async ({ path, replaces }: SaveAsTarget): Promise<void> => {
            if (replaces !== null) return confirmReplacing(path, replaces, call);
            if (!settings.get(AUTO_APPROVE_EDITS, z.boolean(), false)) {
              throw new DomainError(
                'APPROVAL_REQUIRED',
                `Saving to a new location (${JSON.stringify(path)}) needs approval: "Auto-approve edits" ` +
                  '(Settings → Integrations) is off. Ask the user to save it there, or to turn the setting on.',
                { filePath: path },
              );
            }
          };
          const { revision } = await workbench.saveAs(tab.id, filePath, { confirm, origin: originOf(call) });
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

const originOf = (call: ToolCall): ChangeOrigin => ({
  kind: 'mcp',
  caller: call.caller,
  tool: call.tool,
  action: call.action,
});
