import type { ToolDefinition } from '@vmark/sdk';

/** What the host itself tells every MCP client, before and after what its tools add. */
const INTRODUCTION = 'VMark: a Markdown editor whose documents you can read and edit.';
const APPROVALS =
  'Approvals: some actions need a person to approve. When a result says approval is required, ask the user and WAIT; ' +
  'do not retry before they have approved — every retry raises another prompt.';

/**
 * What an MCP client is told at `initialize`: the host's introduction, then what each present
 * tool asks a client to know (orientation, revision discipline, which tool edits which kind —
 * the plugins' own words, so core names none of their tools or kinds), then approvals.
 */
export function serverInstructions(tools: readonly Pick<ToolDefinition, 'instructions'>[]): string {
  const told = tools.flatMap(({ instructions }) => (instructions ? [instructions] : []));
  return [INTRODUCTION, ...told, APPROVALS].join(' ');
}
