import { definePlugin, DocumentStoreToken, SettingsToken, WorkbenchToken } from '@vmark/sdk';
import { createWorkflowValidator } from './validate/index.js';
import { workflowKind } from './workflow-kind.js';
import { workflowTool } from './workflow-tool.js';

export default definePlugin({
  activate(context) {
    context.registerKind(workflowKind);
    context.registerTool(
      workflowTool({
        workbench: context.get(WorkbenchToken),
        documents: context.get(DocumentStoreToken),
        settings: context.get(SettingsToken),
        validator: createWorkflowValidator(),
      }),
    );
  },
});
