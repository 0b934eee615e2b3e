import {
  type DocumentStore,
  type PluginContext,
  type Workbench,
  ApprovalsToken,
  definePlugin,
  DocumentKindsToken,
  DocumentStoreToken,
  EditorsToken,
  HostInfoToken,
  SettingsToken,
  VaultToken,
  WorkbenchToken,
  WorkspaceFilesToken,
} from '@vmark/sdk';
import { documentTool } from './document-tool.js';
import { exportCommand, exportEditorCommand } from './export/export-command.js';
import { formatCjkCommand } from './format-cjk-command.js';
import { linkRewrites } from './links/move-links.js';
import { linkViewProvider } from './links/follow-link.js';
import { LinkPanels } from './links/link-panels.js';
import { markdownKind, textKind } from './markdown-kind.js';
import { selectionTool } from './selection-tool.js';
import { sessionTool } from './session-tool.js';
import { workspaceTool } from './workspace-tool.js';

/** Links (ADR 64, 76): following them from the Markdown view, and the Outline and Backlinks panels. */
function activateLinks(context: PluginContext, workbench: Workbench, documents: DocumentStore): void {
  const files = context.get(WorkspaceFilesToken);
  const vault = context.get(VaultToken);
  context.registerViewProvider(linkViewProvider({ workbench, documents, vault, files }));
  const panels = context.track(new LinkPanels({ workbench, documents, files }));
  const outline = context.registerPanel(panels.outlineProvider());
  const backlinks = context.registerPanel(panels.backlinksProvider());
  const outlineSoon = coalesce(() => outline.refresh());
  panels.onBacklinksChanged(coalesce(() => backlinks.refresh()));
  context.track(
    context.hooks.tap('documentWritten', ({ after }) => {
      panels.written(after);
      outlineSoon();
    }),
  );
  context.track(context.hooks.tap('documentSaved', ({ document }) => panels.written(document)));
  context.track({ dispose: () => (outlineSoon.cancel(), undefined) });
}

/** Calls `run` once after a burst of calls (a person typing): panels load again at most every `ms`. */
function coalesce(run: () => void, ms = 120): (() => void) & { cancel(): void } {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const call = () => {
    clearTimeout(timer);
    timer = setTimeout(run, ms);
  };
  return Object.assign(call, { cancel: () => clearTimeout(timer) });
}

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
    activateLinks(context, workbench, documents);
  },
});
