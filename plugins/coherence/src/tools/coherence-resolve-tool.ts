import type { ToolDefinition } from '@vmark/sdk';
import { defineAction, defineTool, z } from '@vmark/sdk';
import { isUuid } from '../kernel/identity/index.js';
import { RESOLUTIONS } from '../resolution/resolve-edge.js';
import type { WorkspaceRegistry } from '../workspace/workspace-registry.js';
import { workspaceRootArg } from '../workspace/workspace-root.js';

/** The one mutating coherence action (seed `coherence_resolve`; vmark-notes §7.7). */
export function coherenceResolveTool(
  workspaces: WorkspaceRegistry,
  captured: () => Promise<void>,
): ToolDefinition {
  return defineTool({
    name: 'coherence_resolve',
    title: 'VMark Coherence Resolve',
    description:
      'Resolve one live stale edge from coherence.edges as an explicitly delegated agent: accept-newer ratifies ' +
      'the current upstream revision, waive (reason required) accepts the difference. Authorization fails closed: ' +
      'the workspace owner must have granted your client credential a live, unexpired delegation for that ' +
      'resolution kind (`vmark coherence delegate`). Every resolution is audited, names its grant and cannot be ' +
      'undone → {entry_id, kind, resolved_against}. A refusal means there is no such grant: ask the person to ' +
      'grant one; do not retry.',
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    requiredArgs: ['workspace_root'],
    actions: {
      resolve: defineAction({
        args: {
          workspace_root: workspaceRootArg,
          txf: z
            .string({ error: 'txf (uuid) is required' })
            .refine(isUuid, { error: 'txf (uuid) is required' }),
          input: z
            .number({ error: 'input must be a number in the u32 range' })
            .int({ error: 'input must be a number in the u32 range' })
            .min(0, { error: 'input must be a number in the u32 range' })
            .max(0xffff_ffff, { error: 'input must be a number in the u32 range' }),
          resolution: z.enum(RESOLUTIONS, { error: 'resolution is required: accept-newer | waive' }),
          reason: z.string({ error: 'reason must be a string' }).optional(),
        },
        run: async ({ workspace_root, txf, input, resolution, reason }, call) => {
          // The edge asked about may come from a write just made.
          await captured();
          return (await workspaces.forArgument(workspace_root)).resolve(call.caller.principal, {
            txf,
            input,
            resolution,
            reason,
          });
        },
      }),
    },
  });
}
