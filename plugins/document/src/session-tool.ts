import type { DocumentKinds, HostInfo, ToolDefinition, Workbench } from '@vmark/sdk';
import { defineAction, defineTool, MCP_SURFACE_PROTOCOL, z } from '@vmark/sdk';

export function sessionTool(workbench: Workbench, kinds: DocumentKinds, info: HostInfo): ToolDefinition {
  return defineTool({
    name: 'session',
    instructions:
      'Orient first: call `session.get_state` once to see every window and tab with its {filePath, dirty, revision, kind}.',
    title: 'VMark Session State',
    description:
      'One call to orient: every window, its tabs ({id, filePath, title, dirty, revision, kind, active, visible}) ' +
      "and the server capabilities. `active` = the window's current tab; `visible` = the tab belongs to the " +
      "workspace the window shows; `window.focused` = the person's window. Call it again after switch_tab to confirm.",
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    outputSchema: {
      windows: z.array(z.record(z.string(), z.unknown())),
      capabilities: z.record(z.string(), z.unknown()),
    },
    truncationRecovery:
      'close tabs you no longer need (workspace.close), or address a tab you already know by its tabId with document.read.',
    extraArgs: 'ignore',
    actions: {
      get_state: defineAction({
        args: {},
        run: () => ({
          windows: workbench.state().map((window) => ({
            ...window,
            tabs: [...window.tabs, ...workbench.providedTabs(window.label)],
          })),
          capabilities: {
            version: info.version,
            supportedKinds: [...kinds.list()].sort(),
            mcpProtocol: MCP_SURFACE_PROTOCOL,
          },
        }),
      }),
    },
  });
}
