/** `workflow_record`'s own arguments (vmark-notes §4.6): `recordOp`, and the recorded `site`. */
import { z } from '@vmark/sdk';

const RECORD_OP_MESSAGE = 'workflow_record requires recordOp: "start" or "stop"';

export const recordArgs = () => ({
  recordOp: z.enum(['start', 'stop'], { error: RECORD_OP_MESSAGE }),
  // Trimmed, folded to one line and cut to 64 characters by `recordingSite`, as the original does.
  site: z
    .string({ error: "site must be a string (the recorded workflow's front-matter site id)" })
    .optional(),
});
