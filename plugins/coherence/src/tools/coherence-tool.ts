import type { ToolDefinition } from '@vmark/sdk';
import { defineAction, defineTool } from '@vmark/sdk';
import type { WorkspaceRegistry } from '../workspace/workspace-registry.js';
import { workspaceRootArg } from '../workspace/workspace-root.js';

/** The read-only view of the coherence layer (seed `coherence`; vmark-notes §7.6). */
export function coherenceTool(workspaces: WorkspaceRegistry, captured: () => Promise<void>): ToolDefinition {
  const args = { workspace_root: workspaceRootArg };
  // Every answer includes the writes made before the question.
  const workspace = async (root: string) => {
    await captured();
    return workspaces.forArgument(root);
  };
  return defineTool({
    name: 'coherence',
    title: 'VMark Workspace Coherence',
    description:
      'Read-only view of the workspace coherence layer: which derived documents went stale relative to the ' +
      'upstream revisions they were made from. Every action needs workspace_root, the absolute path of an open ' +
      'workspace (see session.get_state). status → {initialized, objects, open_items, quarantined, writer}; ' +
      'edges reconciles the files first (it may append provenance to the workspace ledger, never to documents) → ' +
      '[{txf, input, upstream, upstream_path, pinned, downstream, downstream_path, downstream_rev, state, …}] ' +
      '(only live edges that are not fresh; [] when all is coherent); claims → [{claim, entryId, statement, ' +
      'maturity, invalidAt, visible}]; contexts → [{id, name, parent, enforcement, visibleClaims, errors}]. ' +
      'Resolving an edge is coherence_resolve, and needs a delegation a person granted.',
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    requiredArgs: ['workspace_root'],
    actions: {
      status: defineAction({
        args,
        run: async ({ workspace_root }, call) => (await workspace(workspace_root)).status(call.progress),
      }),
      edges: defineAction({
        args,
        truncationRecovery:
          'Too many stale edges to show at once: resolve or waive the ones you can see, then call `coherence.edges` again.',
        run: async ({ workspace_root }, call) => (await workspace(workspace_root)).edges(call.progress),
      }),
      claims: defineAction({
        args,
        run: async ({ workspace_root }) => (await workspace(workspace_root)).claims(),
      }),
      contexts: defineAction({
        args,
        run: async ({ workspace_root }) => (await workspace(workspace_root)).contexts(),
      }),
    },
  });
}
