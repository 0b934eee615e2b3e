import type { ActionSpec, ToolDefinition } from '@vmark/sdk';
import { ArgumentError, type z } from '@vmark/sdk';

/**
 * The second of two argument checks. The MCP SDK has already parsed the
 * arguments with the tool's flat schema (every argument optional there, types
 * and transforms applied). This checks what one action needs — its required
 * arguments present, no argument of another action — with the seed's
 * plain-string messages. It does not parse again: a transform must run once.
 */
export function checkActionArgs(
  tool: ToolDefinition,
  action: string,
  args: Record<string, unknown>,
): Record<string, unknown> {
  const spec: ActionSpec = tool.actions[action]!;
  const declared = Object.keys(spec.args);
  const given = Object.keys(args).filter((key) => args[key] !== undefined);
  const foreign = given.filter((key) => !declared.includes(key));
  if (foreign.length > 0 && tool.extraArgs !== 'ignore') {
    const list = foreign.join(', ');
    const expected = declared.length > 0 ? `; it takes: ${declared.join(', ')}` : '; it takes no arguments';
    throw new ArgumentError(
      `${list} ${foreign.length === 1 ? 'is not an argument' : 'are not arguments'} of ${tool.name}.${action}${expected}`,
    );
  }
  for (const key of declared.filter((k) => args[k] === undefined)) {
    const absent = spec.args[key]!.safeParse(undefined);
    if (!absent.success) throw new ArgumentError(describeMissing(key, absent.error.issues[0]));
  }
  return Object.fromEntries(declared.filter((key) => args[key] !== undefined).map((key) => [key, args[key]]));
}

/** The schema's own message when it names the field (the SDK's helpers do), else "<field> (<type>) is required". */
function describeMissing(field: string, issue: z.core.$ZodIssue | undefined): string {
  if (issue?.message.startsWith(field)) return issue.message;
  const type = issue?.code === 'invalid_type' ? issue.expected : 'value';
  return `${field} (${type}) is required`;
}
