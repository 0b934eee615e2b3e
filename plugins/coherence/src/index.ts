import {
  definePlugin,
  DocumentStoreToken,
  HostInfoToken,
  HostLogToken,
  VaultToken,
  WorkbenchToken,
} from '@vmark/sdk';
import { CaptureController } from './capture/capture-controller.js';
import { coherenceCommand } from './cli/coherence-command.js';
import { GrantRecord } from './delegation/grant-record.js';
import { breakdownPanel } from './panel/breakdown-panel.js';
import { refreshBreakdownOn } from './panel/breakdown-refresh.js';
import { coherenceResolveTool } from './tools/coherence-resolve-tool.js';
import { coherenceTool } from './tools/coherence-tool.js';
import { writerIdOnFirstUse } from './workspace/writer-id.js';
import { WorkspaceRegistry } from './workspace/workspace-registry.js';

/** The running controller, so that deactivation can wait for captures under way. */
let active: CaptureController | undefined;
/** The workspaces, so that deactivation can write their pending on-disk indexes. */
let open: WorkspaceRegistry | undefined;

export default definePlugin({
  activate(context) {
    const home = context.get(HostInfoToken).home;
    const writerId = writerIdOnFirstUse(home);
    const vault = context.get(VaultToken);
    const grants = new GrantRecord(home);
    const workspaces = (open = context.track(new WorkspaceRegistry(vault, writerId, grants)));
    const capture = (active = new CaptureController(
      context.get(DocumentStoreToken),
      workspaces,
      context.get(HostLogToken),
    ));

    const captured = () => capture.settled();
    context.registerTool(coherenceTool(workspaces, captured));
    context.registerTool(coherenceResolveTool(workspaces, captured));
    context.registerCommand(coherenceCommand(writerId, grants));
    context.hooks.tap('documentOpened', (event) => capture.onOpened(event));
    context.hooks.tap('documentRead', (event) => capture.onRead(event));
    context.hooks.tapWaterfall('beforeDocumentSave', (proposal) => capture.beforeSave(proposal));
    context.hooks.tap('documentWritten', (event) => capture.onWritten(event));
    context.hooks.tap('documentSaved', (event) => capture.onSaved(event));

    const workbench = context.get(WorkbenchToken);
    const panel = context.registerPanel(breakdownPanel({ workspaces, workbench, vault, captured }));
    refreshBreakdownOn(context.hooks, panel);
  },
  // Disabling the plugin (or stopping the host) lets the appends of captures under way finish.
  async deactivate() {
    await active?.settled();
    active = undefined;
    await open?.flush();
    open = undefined;
  },
});
