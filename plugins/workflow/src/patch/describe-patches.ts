/**
 * The one-line checkpoint description of a batch, worded as the original's
 * `describePatchBatch` for the MCP kinds. The original fell through to "Apply 1 patches
 * (job.create)" for a lone internal kind; those get a sentence of their own here.
 */
import type { IRPatch } from './patch-schema.js';

function describeOne(patch: IRPatch): string {
  switch (patch.kind) {
    case 'workflow.set':
      return `Set workflow ${patch.path}`;
    case 'job.set':
      return `Set ${patch.jobId}.${patch.path}`;
    case 'step.set':
      return `Set ${patch.jobId}.steps[${patch.stepIndex}].${patch.path}`;
    case 'with.set':
      return `Set ${patch.jobId}.steps[${patch.stepIndex}].with.${patch.key}`;
    case 'with.remove':
      return `Remove ${patch.jobId}.steps[${patch.stepIndex}].with.${patch.key}`;
    case 'needs.add':
      return `Add ${patch.ref} to ${patch.jobId}.needs`;
    case 'needs.remove':
      return `Remove ${patch.ref} from ${patch.jobId}.needs`;
    case 'trigger.setFilters':
      return `Set on.${patch.event}.${patch.filter}`;
    case 'job.create':
      return `Create job ${patch.jobId}`;
    case 'job.delete':
      return `Delete job ${patch.jobId}`;
    case 'step.insert':
      return `Insert a step into ${patch.jobId}.steps at ${patch.index}`;
    case 'step.delete':
      return `Delete ${patch.jobId}.steps[${patch.stepIndex}]`;
    case 'step.move':
      return `Move ${patch.jobId}.steps[${patch.fromIndex}] to ${patch.toIndex}`;
    case 'workflow.permissions.set':
      return 'Set workflow permissions';
    case 'workflow.concurrency.set':
      return patch.value === null ? 'Remove workflow concurrency' : 'Set workflow concurrency';
  }
}

export function describePatches(patches: readonly IRPatch[]): string {
  const [only] = patches;
  if (patches.length === 0) return 'Apply 0 patches';
  if (patches.length === 1 && only) return describeOne(only);
  const kinds = [...new Set(patches.map((patch) => patch.kind))];
  return `Apply ${patches.length} patches (${kinds.join(', ')})`;
}
