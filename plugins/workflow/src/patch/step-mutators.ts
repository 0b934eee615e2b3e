/**
 * Step-level edits: `step.set`, `with.set`, `with.remove`, and the internal
 * `step.insert` / `step.delete` / `step.move`.
 */
import type { CST } from 'yaml';
import { attachItem, dashGap, detachItem, isBlankSeparated, normalizeBlock } from './block-collection.js';
import { isNullValue, mapRefOf, shapeOf } from './cst-lookup.js';
import { isBlockSeq } from './cst-tokens.js';
import { deleteEntry, getEntry, setEntry } from './map-entries.js';
import type { PatchOf } from './patch-schema.js';
import {
  findJob,
  findStep,
  findSteps,
  walkExisting,
  type MutationContext,
  type StepsRef,
} from './workflow-navigation.js';
import { entryText, parseEntry } from './yaml-fragment.js';
import type { YamlRecord } from './yaml-value.js';

/** step.set, like job.set, creates the last key but no intermediate mapping. */
export function stepSet(context: MutationContext, patch: PatchOf<'step.set'>): void {
  const step = findStep(context, patch.jobId, patch.stepIndex);
  if (!step) return;
  const parts = patch.path.split('.');
  const owner = `step ${patch.stepIndex} of job "${patch.jobId}"`;
  const target = walkExisting(context, step, parts.slice(0, -1), owner);
  if (target) setEntry(target, parts[parts.length - 1] as string, patch.value, context.session.layout);
}

export function withSet(context: MutationContext, patch: PatchOf<'with.set'>): void {
  const step = findStep(context, patch.jobId, patch.stepIndex);
  if (!step) return;
  const layout = context.session.layout;
  const item = getEntry(step, 'with');
  if (!item || isNullValue(item.value)) {
    setEntry(step, 'with', { [patch.key]: patch.value }, layout);
    return;
  }
  const inputs = mapRefOf(item);
  if (!inputs) {
    context.warn(
      `with: of step ${patch.stepIndex} of job "${patch.jobId}" is ${shapeOf(item.value)}, not a mapping`,
    );
    return;
  }
  setEntry(inputs, patch.key, patch.value, layout);
}

/**
 * Removing the last input removes `with:` itself (the original left `with: {}`), which
 * makes with.remove the exact inverse of a with.set that had to create `with:`.
 */
export function withRemove(context: MutationContext, patch: PatchOf<'with.remove'>): void {
  const step = findStep(context, patch.jobId, patch.stepIndex);
  if (!step) return;
  const item = getEntry(step, 'with');
  if (!item || isNullValue(item.value)) return;
  const inputs = mapRefOf(item);
  if (!inputs) {
    context.warn(
      `with: of step ${patch.stepIndex} of job "${patch.jobId}" is ${shapeOf(item.value)}, not a mapping`,
    );
    return;
  }
  if (deleteEntry(inputs, patch.key) === 'emptied') deleteEntry(step, 'with');
}

/** Only a block `steps:` list is edited item by item; `steps: [{…}]` is left to the source. */
function blockSteps(
  context: MutationContext,
  steps: StepsRef,
  jobId: string,
): steps is StepsRef & { node: CST.BlockSequence } {
  if (isBlockSeq(steps.node)) return true;
  context.warn(`steps of job "${jobId}" is a flow sequence; edit it as text`);
  return false;
}

export function stepInsert(context: MutationContext, patch: PatchOf<'step.insert'>): void {
  const job = findJob(context, patch.jobId);
  if (!job) return;
  const layout = context.session.layout;
  const { name, uses, run } = patch.step;
  // Like the original: empty strings count as absent, and an empty step gets a placeholder.
  const step: YamlRecord = {
    ...(name ? { name } : {}),
    ...(uses ? { uses } : {}),
    ...(run ? { run } : {}),
  };
  const written = Object.keys(step).length > 0 ? step : { run: 'echo TODO' };
  const item = getEntry(job, 'steps');
  const emptyFlow =
    item?.value?.type === 'flow-collection' && item.value.items.every((i) => !i.value && !i.key);
  if (!item || isNullValue(item.value) || emptyFlow) {
    setEntry(job, 'steps', [written], layout);
    return;
  }
  const steps = findSteps(context, job, patch.jobId);
  if (!steps || !blockSteps(context, steps, patch.jobId)) return;
  const view = normalizeBlock(steps.node, steps.lead);
  const separated = isBlankSeparated(steps.node);
  const entry = parseEntry(
    entryText(null, written, steps.node.indent, layout, { dashGap: dashGap(steps.node) }),
    layout,
  );
  const position = Math.max(0, Math.min(patch.index, steps.count));
  attachItem(view, position, entry, layout, separated);
}

export function stepDelete(context: MutationContext, patch: PatchOf<'step.delete'>): void {
  const job = findJob(context, patch.jobId);
  const steps = job && findSteps(context, job, patch.jobId);
  if (!job || !steps || !blockSteps(context, steps, patch.jobId)) return;
  if (patch.stepIndex >= steps.count) {
    context.warn(`job "${patch.jobId}" has no step ${patch.stepIndex} (it has ${steps.count})`);
    return;
  }
  if (steps.count === 1) {
    setEntry(job, 'steps', [], context.session.layout);
    return;
  }
  detachItem(normalizeBlock(steps.node, steps.lead), patch.stepIndex);
}

export function stepMove(context: MutationContext, patch: PatchOf<'step.move'>): void {
  const job = findJob(context, patch.jobId);
  const steps = job && findSteps(context, job, patch.jobId);
  if (!steps || !blockSteps(context, steps, patch.jobId)) return;
  if (patch.fromIndex >= steps.count) {
    context.warn(`job "${patch.jobId}" has no step ${patch.fromIndex} (it has ${steps.count})`);
    return;
  }
  const target = Math.max(0, Math.min(patch.toIndex, steps.count - 1));
  if (target === patch.fromIndex) return;
  const view = normalizeBlock(steps.node, steps.lead);
  const separated = isBlankSeparated(steps.node);
  const moved = detachItem(view, patch.fromIndex);
  attachItem(view, target, moved, context.session.layout, separated);
}
