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
import { coherenceResolveTool } from './tools/coherence-resolve-tool.js';
import { coherenceTool } from './tools/coherence-tool.js';
import { loadWriterId } from './workspace/writer-id.js';
import { WorkspaceRegistry } from './workspace/workspace-registry.js';

/** The running controller, so that deactivation can wait for captures under way. */
let active: CaptureController | undefined;

export default definePlugin({
  activate(context) {
    const home = context.get(HostInfoToken).home;
    let writer: Promise<string> | undefined;
    // Read (or created) on first use, so a host that never touches coherence writes nothing.
    const writerId = () =>
      (writer ??= loadWriterId(home).catch((error: unknown) => {
        writer = undefined;
        throw error;
      }));
    const vault = context.get(VaultToken);
    const grants = new GrantRecord(home);
    const workspaces = context.track(new WorkspaceRegistry(vault, writerId, grants));
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
    // After an AI's (or the host's) write; its load waits for the captures the write queued. Not on a
    // keystroke (no ledger change), nor on a reload from disk: that fires mid-write, and a scan of a
    // half-written file would be recorded as an edit. The person's Refresh covers outside edits.
    context.hooks.tap('documentWritten', (event) => {
      if (event.origin.kind === 'mcp' || event.origin.kind === 'host') panel.refresh();
    });
    for (const hook of ['documentSaved', 'documentOpened', 'workspaceOpened'] as const)
      context.hooks.tap(hook, () => panel.refresh());
  },
  // Disabling the plugin (or stopping the host) lets the appends of captures under way finish.
  async deactivate() {
    await active?.settled();
    active = undefined;
  },
});
