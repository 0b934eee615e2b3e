import type { McpServer, RegisteredTool } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult, RequestId } from '@modelcontextprotocol/sdk/types.js';
import type { HostHooks, ToolCall, ToolCaller, ToolCalledEvent, ToolDefinition } from '@vmark/sdk';
import {
  isArgumentError,
  isContentResult,
  isDomainError,
  isRefusal,
  isTokenError,
  TokenError,
  z,
} from '@vmark/sdk';
import { checkActionArgs, wireArgument } from './argument-check.js';
import { CallProgress } from './call-progress.js';
import { CallScope, runInCall } from './call-scope.js';
import { boundOutput, contentOverBound, OUTPUT_BOUND_BYTES } from './output-bound.js';
import { renderDomainError, renderTokenError } from './render-error.js';

export interface CompositeToolEnv {
  readonly hooks: HostHooks;
  readonly caller: () => ToolCaller;
  /**
   * Asks the calling client's person a yes/no question; undefined when the client cannot elicit.
   * The question rides on the call's own response stream (over HTTP, a client need not hold a
   * notification stream open, and a proxy relays it with the call).
   */
  readonly elicitor: (relatedRequestId: RequestId) => ToolCall['elicit'];
}

/**
 * Registers one composite tool on one MCP server: a flat input schema whose
 * `action` enum is required and whose other arguments are each optional (the
 * action decides which it needs, and parses them), a dispatcher, and the seed's
 * result shapes.
 */
export function registerCompositeTool(
  server: McpServer,
  tool: ToolDefinition,
  env: CompositeToolEnv,
): RegisteredTool {
  const names = tool.actionNames as [string, ...string[]];
  const flatShape: Record<string, z.ZodType> = {
    action: z.enum(names, {
      error: (issue) =>
        issue.input === undefined
          ? `action (string) is required; expected: ${names.join(', ')}`
          : `Invalid action: ${typeof issue.input === 'string' ? issue.input : JSON.stringify(issue.input)}. Expected: ${names.join(', ')}`,
    }),
  };
  // Arguments every action requires are checked here; the others by the chosen action (ADR 28).
  const required = new Set(tool.requiredArgs);
  for (const spec of Object.values(tool.actions)) {
    for (const [arg, schema] of Object.entries(spec.args))
      flatShape[arg] ??= required.has(arg) ? schema : wireArgument(schema);
  }
  const inputSchema = tool.extraArgs === 'ignore' ? z.object(flatShape) : z.strictObject(flatShape);
  const outputSchema = tool.outputSchema
    ? z.object(
        Object.fromEntries(
          Object.entries({ ...tool.outputSchema, ...truncationOutputShape }).map(([k, s]) => [
            k,
            s.optional(),
          ]),
        ),
      )
    : undefined;

  return server.registerTool(
    tool.name,
    {
      title: tool.title,
      description: tool.description,
      inputSchema,
      outputSchema,
      annotations: { title: tool.title, ...tool.annotations },
    },
    async (args: Record<string, unknown>, extra): Promise<CallToolResult> => {
      const { action, ...rest } = args as { action: string } & Record<string, unknown>;
      const started = performance.now();
      const caller = env.caller();
      let outcome: ToolCalledEvent['outcome'] = 'ok';
      const progress = new CallProgress(extra._meta?.progressToken, (params) =>
        extra.sendNotification({ method: 'notifications/progress', params }),
      );
      const scope = new CallScope(caller.connectionId, extra.requestId, progress);
      try {
        const checked = checkActionArgs(tool, action, rest);
        const spec = tool.actions[action]!;
        const data: unknown = await runInCall(scope, () =>
          spec.run(checked, {
            tool: tool.name,
            action,
            caller,
            signal: extra.signal,
            elicit: env.elicitor(extra.requestId),
            progress: progress.report,
          }),
        );
        return successResult(tool, data ?? null, spec.truncationRecovery ?? tool.truncationRecovery);
      } catch (error) {
        if (isArgumentError(error)) {
          outcome = 'argument-error';
          return { isError: true, content: [{ type: 'text', text: error.message }] };
        }
        if (isDomainError(error)) {
          outcome = 'domain-error';
          return renderDomainError(error.toEnvelope());
        }
        if (isTokenError(error)) {
          outcome = 'domain-error';
          return renderTokenError(error);
        }
        if (isRefusal(error)) {
          outcome = 'domain-error';
          return {
            isError: true,
            content: [{ type: 'text', text: error.message }],
            structuredContent: { ...error.structured },
          };
        }
        outcome = 'internal-error';
        const message = error instanceof Error ? error.message : String(error);
        return renderDomainError({ error: 'INTERNAL', message });
      } finally {
        // Before the answer is sent: nothing of this call's may follow it on its stream.
        scope.answer();
        env.hooks.toolCalled.call({
          tool: tool.name,
          action,
          caller,
          outcome,
          durationMs: performance.now() - started,
        });
      }
    },
  );
}

/** Any structured result may become the truncation envelope, so every output schema admits it. */
const truncationOutputShape = {
  truncated: z.boolean(),
  truncation_note: z.string(),
  bytes_total: z.number(),
  bytes_shown: z.number(),
  preview: z.string(),
};

function successResult(tool: ToolDefinition, data: unknown, recovery: string | undefined): CallToolResult {
  if (isContentResult(data)) {
    const over = contentOverBound(data.content);
    if (over !== null) {
      // Thrown, so the call is answered (and counted) as the refusal it is.
      throw new TokenError(
        'OUTPUT_TOO_LARGE',
        `the result is ${over} bytes, over the ${OUTPUT_BOUND_BYTES}-byte bound, and an image cannot be cut; ` +
          'this is a fault of the tool, not of the call',
        { bytes_total: over },
      );
    }
    return { content: data.content.map((block) => ({ ...block })) };
  }
  const bounded = boundOutput(data, recovery);
  const result: CallToolResult = { content: [{ type: 'text', text: bounded.text }] };
  if (bounded.truncated) {
    result.structuredContent = { ...bounded.envelope };
  } else if (tool.outputSchema) {
    result.structuredContent = isPlainObject(data) ? data : { result: data };
  }
  return result;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
