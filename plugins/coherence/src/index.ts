import { definePlugin, DocumentStoreToken, HostInfoToken, VaultToken } from '@vmark/sdk';
import { CaptureController } from './capture/capture-controller.js';
import { coherenceCommand } from './cli/coherence-command.js';
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
    const workspaces = context.track(new WorkspaceRegistry(context.get(VaultToken), writerId));
    const capture = (active = new CaptureController(context.get(DocumentStoreToken), workspaces, (message) =>
      process.stderr.write(`vmark: coherence: ${message}\n`),
    ));

    const captured = () => capture.settled();
    context.registerTool(coherenceTool(workspaces, captured));
    context.registerTool(coherenceResolveTool(workspaces, captured));
    context.registerCommand(coherenceCommand(writerId));
    context.hooks.tap('documentRead', (event) => capture.onRead(event));
    context.hooks.tapWaterfall('beforeDocumentWrite', (proposal) => capture.beforeWrite(proposal));
    context.hooks.tap('documentWritten', (event) => capture.onWritten(event));
    context.hooks.tap('documentSaved', (event) => capture.onSaved(event));
  },
  // Disabling the plugin (or stopping the host) lets the appends of captures under way finish.
  async deactivate() {
    await active?.settled();
    active = undefined;
  },
});
