import type { RegisteredTool } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { RequestId } from '@modelcontextprotocol/sdk/types.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Disposable, HostHooks, ToolCall, ToolCaller } from '@vmark/sdk';
import type { LogHub } from '../log/log-hub.js';
import { ALLOW_FIELD, approvalForm } from './approval-form.js';
import { registerCompositeTool } from './composite-tool.js';
import { serverInstructions } from './instructions.js';
import { attachSessionLog } from './session-log.js';
import { LazyAjvValidator } from './lazy-ajv-validator.js';
import type { ToolRegistry } from '../plugins/tool-registry.js';

export interface McpSessionOptions {
  readonly version: string;
  readonly registry: ToolRegistry;
  readonly hooks: HostHooks;
  /** The host's messages, which the session passes on at the level its client set. */
  readonly log: LogHub;
  readonly connectionId: string;
  /** Who the connection's credential names, asked on every call so a revocation applies at once. */
  readonly principal: () => string | null;
}

/**
 * One MCP server for one connection. It mirrors the tool registry, so enabling
 * or disabling a plugin adds or removes tools here, and the SDK tells the client
 * with `notifications/tools/list_changed`. It also passes the host's messages on to the client
 * (`notifications/message`, at the level the client set; see `session-log.ts`).
 */
export function createMcpSession(options: McpSessionOptions): { server: McpServer } & Disposable {
  const server = new McpServer(
    { name: 'vmark', title: 'VMark', version: options.version },
    {
      capabilities: { tools: { listChanged: true }, logging: {} },
      // The tools present when the client connects: `initialize` is answered once.
      instructions: serverInstructions(options.registry.list().map((entry) => entry.tool)),
      // Its default builds ajv in the constructor, for every connection.
      jsonSchemaValidator: new LazyAjvValidator(),
    },
  );
  const logging = attachSessionLog(server.server, options.log, options.connectionId);
  const caller = (): ToolCaller => {
    const client = server.server.getClientVersion();
    return {
      connectionId: options.connectionId,
      clientName: client?.name ?? 'unknown',
      clientVersion: client?.version ?? 'unknown',
      principal: options.principal(),
    };
  };
  const elicitor = (relatedRequestId: RequestId): ToolCall['elicit'] => {
    if (!server.server.getClientCapabilities()?.elicitation) return undefined;
    return async (message, options) => {
      const result = await server.server.elicitInput(
        { message, requestedSchema: approvalForm(options) },
        { relatedRequestId },
      );
      if (result.action !== 'accept') return result.action;
      // The SDK checked the content against the form; only an explicit choice that was offered lasts longer.
      const chosen = result.content?.[ALLOW_FIELD];
      if (options?.offerSite !== undefined && chosen === 'site') return 'accept-site';
      if (options?.offerUntilNavigation === true && chosen === 'until-navigation') {
        return 'accept-until-navigation';
      }
      return 'accept';
    };
  };
  const env = { hooks: options.hooks, caller, elicitor };
  const registered = new Map<string, RegisteredTool>();
  for (const { tool } of options.registry.list())
    registered.set(tool.name, registerCompositeTool(server, tool, env));
  const subscription = options.registry.onDidChange((change) => {
    const name = change.entry.tool.name;
    if (change.type === 'added') {
      registered.set(name, registerCompositeTool(server, change.entry.tool, env));
    } else {
      registered.get(name)?.remove();
      registered.delete(name);
    }
  });
  return {
    server,
    dispose() {
      subscription.dispose();
      logging.dispose();
      void server.close();
    },
  };
}
