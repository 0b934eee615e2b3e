/** Arguments of the workflow actions (vmark-notes §3, §4.4): `workflow_run`, `workflow_cancel`, `workflow_status`. */
import { requiredId, z } from '@vmark/sdk';

const RUN_ID = 'runId must be a workflow run id such as "wfrun-tab-3-1", from workflow_run';

export const workflowRunArgs = () => ({
  source: z
    .string({ error: 'workflow_run requires a `source` string (the workflow text)' })
    .refine((value) => value.trim() !== '', { error: 'workflow_run requires a non-empty `source`' }),
  inputs: z
    .record(z.string(), z.string({ error: 'inputs must map each input name to a string value' }), {
      error: 'inputs must be an object {name: value} of strings',
    })
    .optional(),
  allowRepeat: z.boolean({ error: 'allowRepeat must be a boolean' }).optional(),
  resumeRunId: z.string({ error: RUN_ID }).trim().min(1, { error: RUN_ID }).optional(),
});

export const runIdArg = () => requiredId('runId');
