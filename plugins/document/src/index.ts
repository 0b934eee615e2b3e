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
import { exportCommand, exportEditorCommand } from './export/export-command.js';
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
    // Export (ADR 75): from the palette, and `vmark export` at a terminal.
    const vault = context.get(VaultToken);
    context.registerEditorCommand(
      'document.exportHtml',
      exportEditorCommand('html', workbench, documents, vault),
    );
    context.registerEditorCommand(
      'document.exportPdf',
      exportEditorCommand('pdf', workbench, documents, vault),
    );
    context.registerCommand(exportCommand(context.get(HostInfoToken).home));
    // A file moved in the file list: the links to it in the other notes follow (ADR 64, 70).
    context.hooks.tapWaterfall('filesMoved', (proposal) => ({
      ...proposal,
      rewrites: [...proposal.rewrites, ...linkRewrites(proposal)],
    }));
  },
});
