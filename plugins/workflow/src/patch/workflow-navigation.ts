/**
 * Reaching a job, a job's steps, a step, or a dotted path below them. Each lookup that
 * fails says why through `warn` and returns undefined: the original treated an unknown job
 * or step as a silent no-op; we keep the no-op and report it.
 */
import type { CST } from 'yaml';
import { isBlockSeq, isFlowSeq, type Item } from './cst-tokens.js';
import { isNullValue, mapRefOf, seqRefOf, shapeOf, type MapRef, type SeqRef } from './cst-lookup.js';
import type { EditSession } from './edit-session.js';
import { getEntry } from './map-entries.js';
import { contentIndexes } from './block-collection.js';
import { flowContentIndexes } from './flow-collection.js';

export interface MutationContext {
  readonly session: EditSession;
  /** Records why the patch changed nothing. */
  warn(reason: string): void;
}

export function requireRoot(context: MutationContext): MapRef | undefined {
  const root = context.session.root;
  if (!root) context.warn('the document has no top-level mapping');
  return root;
}

export function findJobs(context: MutationContext): MapRef | undefined {
  const root = requireRoot(context);
  if (!root) return undefined;
  const item = getEntry(root, 'jobs');
  const jobs = item ? mapRefOf(item) : undefined;
  if (!jobs)
    context.warn(item ? `jobs is ${shapeOf(item.value)}, not a mapping` : 'the workflow has no jobs');
  return jobs;
}

export function findJob(context: MutationContext, jobId: string): MapRef | undefined {
  const jobs = findJobs(context);
  if (!jobs) return undefined;
  const item = getEntry(jobs, jobId);
  if (!item) {
    context.warn(`job "${jobId}" does not exist`);
    return undefined;
  }
  const job = mapRefOf(item);
  if (!job) context.warn(`job "${jobId}" is ${shapeOf(item.value)}, not a mapping`);
  return job;
}

export interface StepsRef extends SeqRef {
  readonly count: number;
  readonly item: Item;
}

export function countItems(node: CST.BlockSequence | CST.FlowCollection): number {
  return isBlockSeq(node) ? contentIndexes(node).length : flowContentIndexes(node).length;
}

export function findSteps(context: MutationContext, job: MapRef, jobId: string): StepsRef | undefined {
  const item = getEntry(job, 'steps');
  const steps = item ? seqRefOf(item) : undefined;
  if (!item || !steps) {
    context.warn(
      item && !isNullValue(item.value)
        ? `steps of job "${jobId}" is ${shapeOf(item.value)}, not a sequence`
        : `job "${jobId}" has no steps`,
    );
    return undefined;
  }
  return { ...steps, item, count: countItems(steps.node) };
}

export function findStep(context: MutationContext, jobId: string, stepIndex: number): MapRef | undefined {
  const job = findJob(context, jobId);
  const steps = job && findSteps(context, job, jobId);
  if (!steps) return undefined;
  if (stepIndex >= steps.count) {
    context.warn(`job "${jobId}" has no step ${stepIndex} (it has ${steps.count})`);
    return undefined;
  }
  const { node } = steps;
  const indexes = isFlowSeq(node) ? flowContentIndexes(node) : contentIndexes(node);
  const item = node.items[indexes[stepIndex] as number] as Item;
  const step = mapRefOf(item);
  if (!step) context.warn(`step ${stepIndex} of job "${jobId}" is ${shapeOf(item.value)}, not a mapping`);
  return step;
}

/**
 * Follows the mappings named by `parts` below `start`, creating nothing (job.set and
 * step.set never create intermediate mappings).
 */
export function walkExisting(
  context: MutationContext,
  start: MapRef,
  parts: readonly string[],
  owner: string,
): MapRef | undefined {
  let ref = start;
  for (let i = 0; i < parts.length; i++) {
    const item = getEntry(ref, parts[i] as string);
    const child = item ? mapRefOf(item) : undefined;
    if (!child) {
      const path = parts.slice(0, i + 1).join('.');
      context.warn(
        item && !isNullValue(item.value)
          ? `${owner} has ${path} as ${shapeOf(item.value)}, not a mapping`
          : `${owner} has no mapping at ${path}`,
      );
      return undefined;
    }
    ref = child;
  }
  return ref;
}
