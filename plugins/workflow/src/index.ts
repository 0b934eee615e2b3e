import { definePlugin } from '@vmark/sdk';
import { workflowKind } from './workflow-kind.js';

export default definePlugin({
  activate(context) {
    context.registerKind(workflowKind);
  },
});
