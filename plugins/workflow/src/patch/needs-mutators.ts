/**
 * `needs.add` / `needs.remove`. `needs` may be a single job id or a list; adding to a
 * scalar makes a flow list `[old, new]`, removing the last id removes the key.
 */
import { isNullValue, seqRefOf, shapeOf } from './cst-lookup.js';
import { isFlowScalar } from './cst-tokens.js';
import { appendListElement, listStrings, removeListElement } from './list-values.js';
import { deleteEntry, getEntry, scalarString, setEntry } from './map-entries.js';
import type { PatchOf } from './patch-schema.js';
import { countItems, findJob, type MutationContext } from './workflow-navigation.js';

export function needsAdd(context: MutationContext, patch: PatchOf<'needs.add'>): void {
  const job = findJob(context, patch.jobId);
  if (!job) return;
  const layout = context.session.layout;
  const item = getEntry(job, 'needs');
  if (!item || isNullValue(item.value)) {
    setEntry(job, 'needs', [patch.ref], layout);
    return;
  }
  const single =
    isFlowScalar(item.value) || item.value?.type === 'block-scalar' ? scalarString(item) : undefined;
  if (single !== undefined) {
    if (single !== patch.ref) setEntry(job, 'needs', [single, patch.ref], layout);
    return;
  }
  const list = seqRefOf(item);
  if (!list) {
    context.warn(`needs of job "${patch.jobId}" is ${shapeOf(item.value)}, not a job id or a list`);
    return;
  }
  if (!listStrings(list.node).includes(patch.ref)) appendListElement(list.node, list.lead, patch.ref, layout);
}

export function needsRemove(context: MutationContext, patch: PatchOf<'needs.remove'>): void {
  const job = findJob(context, patch.jobId);
  if (!job) return;
  const item = getEntry(job, 'needs');
  if (!item || isNullValue(item.value)) return;
  const single =
    isFlowScalar(item.value) || item.value?.type === 'block-scalar' ? scalarString(item) : undefined;
  if (single !== undefined) {
    if (single === patch.ref) deleteEntry(job, 'needs');
    return;
  }
  const list = seqRefOf(item);
  if (!list) {
    context.warn(`needs of job "${patch.jobId}" is ${shapeOf(item.value)}, not a job id or a list`);
    return;
  }
  const position = listStrings(list.node).indexOf(patch.ref);
  if (position < 0) return;
  if (countItems(list.node) === 1) deleteEntry(job, 'needs');
  else removeListElement(list.node, list.lead, position);
}
