/** Job-level edits: `job.set`, and the internal `job.create` / `job.delete`. */
import { isNullValue, mapRefOf, shapeOf } from './cst-lookup.js';
import { deleteEntry, getEntry, setEntry } from './map-entries.js';
import type { PatchOf } from './patch-schema.js';
import { findJob, findJobs, requireRoot, walkExisting, type MutationContext } from './workflow-navigation.js';

/** job.set creates the last key but no intermediate mapping (an unknown path is a no-op). */
export function jobSet(context: MutationContext, patch: PatchOf<'job.set'>): void {
  const job = findJob(context, patch.jobId);
  if (!job) return;
  const parts = patch.path.split('.');
  const target = walkExisting(context, job, parts.slice(0, -1), `job "${patch.jobId}"`);
  if (target) setEntry(target, parts[parts.length - 1] as string, patch.value, context.session.layout);
}

export function jobCreate(context: MutationContext, patch: PatchOf<'job.create'>): void {
  const root = requireRoot(context);
  if (!root) return;
  const layout = context.session.layout;
  const job = { 'runs-on': patch.runsOn ?? 'ubuntu-latest', steps: [] };
  const item = getEntry(root, 'jobs');
  if (!item || isNullValue(item.value)) {
    setEntry(root, 'jobs', { [patch.jobId]: job }, layout);
    return;
  }
  const jobs = mapRefOf(item);
  if (!jobs) {
    context.warn(`jobs is ${shapeOf(item.value)}, not a mapping`);
    return;
  }
  if (getEntry(jobs, patch.jobId)) {
    context.warn(`job "${patch.jobId}" already exists and job.create does not overwrite`);
    return;
  }
  setEntry(jobs, patch.jobId, job, layout);
}

export function jobDelete(context: MutationContext, patch: PatchOf<'job.delete'>): void {
  const jobs = findJobs(context);
  if (!jobs) return;
  const outcome = deleteEntry(jobs, patch.jobId);
  if (outcome === 'absent') context.warn(`job "${patch.jobId}" does not exist`);
  // A block mapping cannot be empty: the last job gone, `jobs:` reads `jobs: {}`.
  if (outcome === 'emptied' && context.session.root)
    setEntry(context.session.root, 'jobs', {}, context.session.layout);
}
