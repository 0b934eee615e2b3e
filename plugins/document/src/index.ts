import {
  ApprovalsToken,
  definePlugin,
  DocumentKindsToken,
  DocumentStoreToken,
  EditorsToken,
  HostInfoToken,
  SettingsToken,
  VaultToken,
  WorkbenchToken,
} from '@vmark/sdk';
import { documentTool } from './document-tool.js';
import { formatCjkCommand } from './format-cjk-command.js';
import { linkRewrites } from './links/move-links.js';
import { markdownKind, textKind } from './markdown-kind.js';
import { selectionTool } from './selection-tool.js';
import { sessionTool } from './session-tool.js';
import { workspaceTool } from './workspace-tool.js';

export default definePlugin({
  activate(context) {
    const workbench = context.get(WorkbenchToken);
    const documents = context.get(DocumentStoreToken);
    context.registerKind(markdownKind);
    context.registerKind(textKind);
    context.registerTool(sessionTool(workbench, context.get(DocumentKindsToken), context.get(HostInfoToken)));
    context.registerTool(
      workspaceTool({
        workbench,
        documents,
        vault: context.get(VaultToken),
        approvals: context.get(ApprovalsToken),
        settings: context.get(SettingsToken),
      }),
    );
    context.registerTool(documentTool(workbench, documents, context.get(SettingsToken)));
    context.registerTool(selectionTool(workbench, documents, context.get(EditorsToken)));
    context.registerEditorCommand(
      'document.formatCjk',
      formatCjkCommand(workbench, documents, context.get(SettingsToken)),
    );
    // A file moved in the file list: the links to it in the other notes follow (ADR 64, 70).
    context.hooks.tapWaterfall('filesMoved', (proposal) => ({
      ...proposal,
      rewrites: [...proposal.rewrites, ...linkRewrites(proposal)],
    }));
  },
});
