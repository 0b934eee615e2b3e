import {
  definePlugin,
  DocumentKindsToken,
  DocumentStoreToken,
  HostInfoToken,
  WorkbenchToken,
} from '@vmark/sdk';
import { documentTool } from './document-tool.js';
import { markdownKind } from './markdown-kind.js';
import { sessionTool } from './session-tool.js';

export default definePlugin({
  activate(context) {
    const workbench = context.get(WorkbenchToken);
    context.registerKind(markdownKind);
    context.registerTool(sessionTool(workbench, context.get(DocumentKindsToken), context.get(HostInfoToken)));
    context.registerTool(documentTool(workbench, context.get(DocumentStoreToken)));
  },
});
