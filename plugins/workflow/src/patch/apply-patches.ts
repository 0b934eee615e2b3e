/**
 * `applyPatches`: the whole batch or nothing. Each patch is applied to a fresh CST of the
 * previous patch's output and the result must parse; any failure throws a `PatchError`
 * naming the patch, and since strings are immutable the caller's text is simply kept.
 */
import { describePatches } from './describe-patches.js';
import { openSession, printSession } from './edit-session.js';
import { jobCreate, jobDelete, jobSet } from './job-mutators.js';
import { needsAdd, needsRemove } from './needs-mutators.js';
import { PatchError } from './patch-error.js';
import type { IRPatch } from './patch-schema.js';
import { stepDelete, stepInsert, stepMove, stepSet, withRemove, withSet } from './step-mutators.js';
import { triggerSetFilters } from './trigger-mutators.js';
import { validatePatches } from './validate-patches.js';
import { concurrencySet, permissionsSet, workflowSet } from './workflow-mutators.js';
import type { MutationContext } from './workflow-navigation.js';

export interface ApplyResult {
  readonly text: string;
  /** False when the text is byte-identical to the input (a no-op batch). */
  readonly changed: boolean;
  /** One line per patch that changed nothing because its target was missing or misshapen. */
  readonly warnings: string[];
  /** The checkpoint description of the batch. */
  readonly description: string;
}

function dispatch(context: MutationContext, patch: IRPatch): void {
  switch (patch.kind) {
    case 'workflow.set':
      return workflowSet(context, patch);
    case 'job.set':
      return jobSet(context, patch);
    case 'step.set':
      return stepSet(context, patch);
    case 'with.set':
      return withSet(context, patch);
    case 'with.remove':
      return withRemove(context, patch);
    case 'needs.add':
      return needsAdd(context, patch);
    case 'needs.remove':
      return needsRemove(context, patch);
    case 'trigger.setFilters':
      return triggerSetFilters(context, patch);
    case 'job.create':
      return jobCreate(context, patch);
    case 'job.delete':
      return jobDelete(context, patch);
    case 'step.insert':
      return stepInsert(context, patch);
    case 'step.delete':
      return stepDelete(context, patch);
    case 'step.move':
      return stepMove(context, patch);
    case 'workflow.permissions.set':
      return permissionsSet(context, patch);
    case 'workflow.concurrency.set':
      return concurrencySet(context, patch);
  }
}

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

export function applyPatches(source: string, patches: readonly IRPatch[]): ApplyResult {
  // The MCP layer validates with allowInternal: false first; this guards in-app callers.
  const checked = validatePatches(patches, { allowInternal: true });
  let session = openSession(source);
  if (session.problem !== undefined)
    throw new PatchError(`The workflow YAML does not parse: ${session.problem}`);
  const warnings: string[] = [];
  let text = source;
  checked.forEach((patch, index) => {
    try {
      const context = {
        session,
        warn: (reason: string) => warnings.push(`${reason}; patch ${index} changed nothing`),
      };
      dispatch(context, patch);
      text = printSession(session);
      session = openSession(text);
    } catch (error) {
      throw new PatchError(`Patch application failed: ${messageOf(error)}`, index);
    }
    // A guard, not an expected path: every edit is meant to print valid YAML.
    if (session.problem !== undefined)
      throw new PatchError(
        `Patch application failed: the edited YAML would not parse (${session.problem})`,
        index,
      );
  });
  return { text, changed: text !== source, warnings, description: describePatches(checked) };
}
