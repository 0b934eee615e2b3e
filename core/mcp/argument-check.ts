import type { ActionSpec, ToolDefinition } from '@vmark/sdk';
import { ArgumentError, DomainError, envelopeCodeOf, z } from '@vmark/sdk';

/**
 * What the MCP SDK checks of an argument before the handler runs: nothing but its
 * presence in the tool's flat schema. The client still sees the argument's JSON Schema
 * (`declared`, the first action's), but the value is parsed once, by the chosen action's
 * own schema in `checkActionArgs`, so that an action's message is its own: one `tabId`
 * property serves `save` (optional: "omit it to target the focused tab") and `close`
 * (required: "tabId must be a non-empty string"). ADR 28.
 */
export function wireArgument(declared: z.ZodType): z.ZodType {
  // The SDK converts the whole object the same way (draft-7, input side); `$schema` belongs at the top only.
  const { $schema: _top, ...shown } = z.toJSONSchema(declared, { io: 'input', target: 'draft-7' });
  if ('$defs' in shown || 'definitions' in shown) {
    throw new Error(
      'An argument schema must not need definitions of its own (no recursive or registered schemas)',
    );
  }
  return z.unknown().optional().meta(shown);
}

/**
 * The second of two argument checks. The MCP SDK has already checked the action and
 * refused unknown keys; arguments every action requires (`requiredArgs`) it has parsed
 * too. This checks what one action needs — no argument of another action, its required
 * arguments present — and parses each argument it was given with the action's schema,
 * with the seed's plain-string messages. Each value is parsed exactly once (a transform
 * must run once).
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
  const parsedBySdk = new Set(tool.requiredArgs);
  const checked: Record<string, unknown> = {};
  for (const key of declared.filter((k) => args[k] !== undefined)) {
    if (parsedBySdk.has(key)) {
      checked[key] = args[key];
      continue;
    }
    const parsed = spec.args[key]!.safeParse(args[key]);
    if (!parsed.success) throw refusalOf(key, parsed.error.issues[0]);
    checked[key] = parsed.data;
  }
  return checked;
}

/** The schema's own message when it names the field (the SDK's helpers do), else "<field> (<type>) is required". */
function describeMissing(field: string, issue: z.core.$ZodIssue | undefined): string {
  if (issue?.message.startsWith(field)) return issue.message;
  const type = issue?.code === 'invalid_type' ? issue.expected : 'value';
  return `${field} (${type}) is required`;
}

/**
 * A value its action refuses: a plain-string argument error that names the field, or the
 * domain envelope the schema asks for (an argument the seed answers with one).
 */
function refusalOf(field: string, issue: z.core.$ZodIssue | undefined): Error {
  const message = issue?.message ?? 'is not valid';
  const code = issue && envelopeCodeOf(issue);
  if (code !== undefined) return new DomainError(code, message);
  if (message.startsWith(field)) return new ArgumentError(message);
  const where = (issue?.path ?? []).reduce<string>(
    (at, part) => (typeof part === 'number' ? `${at}[${part}]` : `${at}.${String(part)}`),
    field,
  );
  return new ArgumentError(`${where}: ${message}`);
}
