import type { ActionSpec, ToolDefinition } from '@vmark/sdk';
import { ArgumentError, z } from '@vmark/sdk';

/**
 * The second of two argument checks. The MCP SDK has already checked types
 * against the tool's flat schema (every argument optional there); this checks
 * what one action needs, with the seed's plain-string messages.
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
  const picked = Object.fromEntries(declared.filter((key) => key in args).map((key) => [key, args[key]]));
  const parsed = z.object(spec.args).safeParse(picked);
  if (!parsed.success) throw new ArgumentError(describeIssue(parsed.error.issues[0]!));
  return parsed.data;
}

function describeIssue(issue: z.core.$ZodIssue): string {
  const field = issue.path.map(String).join('.');
  if (issue.code === 'invalid_type' && issue.input === undefined && issue.path.length === 1) {
    return issue.message.startsWith(field) ? issue.message : `${field} (${issue.expected}) is required`;
  }
  return field === '' || issue.message.startsWith(field) ? issue.message : `${field}: ${issue.message}`;
}
