import { z } from 'zod';

/** The four MCP tool hints, all required: the seed pins each one per tool. */
export interface ToolAnnotations {
  readonly readOnlyHint: boolean;
  readonly destructiveHint: boolean;
  readonly idempotentHint: boolean;
  readonly openWorldHint: boolean;
}

/** Who is calling: one MCP connection of one client. */
export interface ToolCaller {
  /** Unique per MCP connection for the life of the host. */
  readonly connectionId: string;
  readonly clientName: string;
  readonly clientVersion: string;
  /**
   * The installed client this connection's credential (`VMARK_MCP_TOKEN`) names, or null
   * for an anonymous connection. Unlike `clientName`, which a client states itself, this
   * can carry an authorization decision.
   */
  readonly principal: string | null;
}

/**
 * A person's answer to a question put through the calling MCP client. `accept-site` only comes
 * back when the question offered it (`ElicitOptions.offerSite`): accepted for good on that site;
 * `accept-until-navigation` likewise (`ElicitOptions.offerUntilNavigation`).
 */
export type ElicitationAnswer = 'accept' | 'accept-site' | 'accept-until-navigation' | 'decline' | 'cancel';

export interface ElicitOptions {
  /**
   * Offer "accept on this site" (this origin, `scheme://host[:port]`) besides "accept once": the
   * form then asks which, and that answer is `accept-site`. Only for an approval that may stand.
   */
  readonly offerSite?: string;
  /**
   * Offer "accept until navigation" besides "accept once" (host API 1.8.0): that answer is
   * `accept-until-navigation`. Never together with `offerSite`.
   */
  readonly offerUntilNavigation?: boolean;
}

/**
 * Tells the calling client how far a long call has come (MCP `notifications/progress`): `done`
 * must rise from one report to the next (a report that does not is dropped), `total` is what
 * `done` will reach, when known. Does nothing when the client passed no `progressToken`; the host
 * sends at most about ten a second (the latest report wins) and none once the call has answered.
 */
export type ReportProgress = (done: number, total?: number, message?: string) => void;

/** What a handler gets besides its arguments. */
export interface ToolCall {
  readonly tool: string;
  readonly action: string;
  readonly caller: ToolCaller;
  readonly signal: AbortSignal;
  /**
   * Asks the person at the calling client a yes/no question through MCP
   * elicitation, within this request. Absent when the client did not declare
   * the elicitation capability.
   */
  readonly elicit?: (message: string, options?: ElicitOptions) => Promise<ElicitationAnswer>;
  /** For calls that may take seconds (a first index, a large write, an extraction, a workflow run). */
  readonly progress: ReportProgress;
}

export type ArgsShape = Readonly<Record<string, z.ZodType>>;
export type ArgsOf<S extends ArgsShape> = z.infer<z.ZodObject<{ -readonly [K in keyof S]: S[K] }>>;

export interface ActionSpec<S extends ArgsShape = ArgsShape> {
  /** Argument schemas of this action; an argument is required unless its schema is optional. */
  readonly args: S;
  /**
   * What to tell an AI whose result of this action went over the output bound.
   * Falls back to the tool's hint, then to the host's default.
   */
  readonly truncationRecovery?: string;
  // Method syntax on purpose: it lets a map of differently-typed actions share one type.
  run(args: ArgsOf<S>, call: ToolCall): unknown;
}

export interface ToolSpec {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly annotations: ToolAnnotations;
  /** Output fields (all optional) for tools whose results are structured; see vmark-notes §1.1. */
  readonly outputSchema?: ArgsShape;
  readonly truncationRecovery?: string;
  /**
   * Arguments the action does not declare are refused (a typo must not silently
   * target the focused tab); `'ignore'` drops them instead, for argument-less tools
   * that clients call with stray fields.
   */
  readonly extraArgs?: 'reject' | 'ignore';
  /**
   * Arguments the input schema lists as required besides `action` (the seed pins some, such
   * as coherence's `workspace_root`). Every action must declare each one, not optional.
   */
  readonly requiredArgs?: readonly string[];
  /**
   * What an AI client should know of this tool before its first call, told at `initialize`
   * (the server's instructions) while the tool is present: one or two plain sentences.
   */
  readonly instructions?: string;
  readonly actions: Readonly<Record<string, ActionSpec>>;
}

/** A composite tool: one MCP tool multiplexed by a required `action` enum. */
export interface ToolDefinition extends ToolSpec {
  readonly actionNames: readonly string[];
}

const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

/** Types the arguments of one action from its schemas. */
export function defineAction<S extends ArgsShape>(spec: ActionSpec<S>): ActionSpec<S> {
  return spec;
}

/**
 * Declares a composite tool and checks it: a valid name, a title, all four
 * annotations as booleans, at least one action, and arguments that mean the same
 * thing in every action that declares them (they share one JSON Schema property).
 */
export function defineTool(spec: ToolSpec): ToolDefinition {
  const problems = toolProblems(spec);
  if (problems.length > 0) {
    throw new Error(`Invalid tool "${spec.name}": ${problems.join('; ')}`);
  }
  return { ...spec, actionNames: Object.keys(spec.actions) };
}

function toolProblems(spec: ToolSpec): string[] {
  const problems: string[] = [];
  if (!TOOL_NAME.test(spec.name)) problems.push('name must match ' + String(TOOL_NAME));
  if (typeof spec.title !== 'string' || spec.title.trim() === '') problems.push('title is required');
  for (const hint of ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const) {
    if (typeof spec.annotations?.[hint] !== 'boolean') problems.push(`annotations.${hint} must be a boolean`);
  }
  if (spec.annotations?.readOnlyHint && spec.annotations.destructiveHint) {
    problems.push('a read-only tool cannot be destructive');
  }
  const actions = Object.keys(spec.actions ?? {});
  if (actions.length === 0) problems.push('at least one action is required');
  const seen = new Map<string, string>();
  for (const action of actions) {
    for (const [arg, schema] of Object.entries(spec.actions[action]!.args)) {
      if (arg === 'action') problems.push(`action "${action}" may not declare an argument named "action"`);
      const shape = JSON.stringify(
        z.toJSONSchema(schema.optional(), { io: 'input', unrepresentable: 'any' }),
      );
      const earlier = seen.get(arg);
      if (earlier !== undefined && earlier !== shape) {
        problems.push(`argument "${arg}" has different schemas in different actions`);
      }
      seen.set(arg, shape);
    }
  }
  for (const arg of spec.requiredArgs ?? []) {
    for (const action of actions) {
      const schema = spec.actions[action]!.args[arg];
      if (schema === undefined || schema.safeParse(undefined).success)
        problems.push(`required argument "${arg}" must be declared, not optional, by action "${action}"`);
    }
  }
  return problems;
}
