/**
 * The IRPatch contract ("apply_patch_v1"): eight kinds an AI may send over MCP and seven
 * more that only the in-app forms editor uses. The schemas are the source of the types, so
 * the two cannot drift; `validatePatches` runs them and words the first problem.
 */
import { z } from '@vmark/sdk';

/**
 * Zod calls an `error` function with the issue; a field that is absent reads better as
 * "is missing" than as "must be a string".
 */
function need(expectation: string): { error: (issue: { input?: unknown }) => string } {
  return {
    error: (issue) =>
      issue.input === undefined ? `is missing; it must be ${expectation}` : `must be ${expectation}`,
  };
}

const NON_EMPTY = 'a non-empty string';
const nonEmptyString = z.string(need(NON_EMPTY)).min(1, need(NON_EMPTY));
const nonNegativeInteger = z
  .number(need('a non-negative integer'))
  .int(need('a non-negative integer'))
  .nonnegative(need('a non-negative integer'));
const integer = z.number(need('an integer')).int(need('an integer'));

const DOTTED = 'a dotted path of non-empty keys, such as "env.NODE_VERSION"';
/** Dotted path into a mapping; an empty segment ("a..b", ".a") would name no key. */
const dottedPath = z.string(need(DOTTED)).regex(/^[^.]+(?:\.[^.]+)*$/, need(DOTTED));

const finiteNumber = z.number().finite();
const stringList = z.array(z.string(need('a string')), need('an array of strings'));

/** What `*.set` patches write: a scalar, or a list of strings that becomes a YAML sequence. */
export const ScalarishSchema = z.union(
  [z.string(), finiteNumber, z.boolean(), z.null(), z.array(z.string())],
  need('a string, a finite number, a boolean, null or an array of strings'),
);
export type Scalarish = z.infer<typeof ScalarishSchema>;

const withValue = z.union(
  [z.string(), finiteNumber, z.boolean()],
  need('a string, a finite number or a boolean'),
);

export const TRIGGER_FILTERS = [
  'branches',
  'branches-ignore',
  'tags',
  'tags-ignore',
  'paths',
  'paths-ignore',
  'types',
] as const;
export type TriggerFilter = (typeof TRIGGER_FILTERS)[number];

const triggerFilter = z.enum(TRIGGER_FILTERS, need(`one of ${TRIGGER_FILTERS.join(', ')}`));

// ─── the eight MCP kinds ────────────────────────────────────────────────────────────────

export const WorkflowSetSchema = z.strictObject({
  kind: z.literal('workflow.set'),
  path: dottedPath,
  value: ScalarishSchema,
});
export const JobSetSchema = z.strictObject({
  kind: z.literal('job.set'),
  jobId: nonEmptyString,
  path: dottedPath,
  value: ScalarishSchema,
});
export const StepSetSchema = z.strictObject({
  kind: z.literal('step.set'),
  jobId: nonEmptyString,
  stepIndex: nonNegativeInteger,
  path: dottedPath,
  value: ScalarishSchema,
});
export const WithSetSchema = z.strictObject({
  kind: z.literal('with.set'),
  jobId: nonEmptyString,
  stepIndex: nonNegativeInteger,
  key: nonEmptyString,
  value: withValue,
});
export const WithRemoveSchema = z.strictObject({
  kind: z.literal('with.remove'),
  jobId: nonEmptyString,
  stepIndex: nonNegativeInteger,
  key: nonEmptyString,
});
export const NeedsAddSchema = z.strictObject({
  kind: z.literal('needs.add'),
  jobId: nonEmptyString,
  ref: nonEmptyString,
});
export const NeedsRemoveSchema = z.strictObject({
  kind: z.literal('needs.remove'),
  jobId: nonEmptyString,
  ref: nonEmptyString,
});
export const TriggerSetFiltersSchema = z.strictObject({
  kind: z.literal('trigger.setFilters'),
  event: nonEmptyString,
  filter: triggerFilter,
  value: stringList,
});

// ─── the seven internal kinds (forms editor only, refused over MCP) ─────────────────────

export const JobCreateSchema = z.strictObject({
  kind: z.literal('job.create'),
  jobId: nonEmptyString,
  runsOn: nonEmptyString.optional(),
});
export const JobDeleteSchema = z.strictObject({
  kind: z.literal('job.delete'),
  jobId: nonEmptyString,
});
export const StepInsertSchema = z.strictObject({
  kind: z.literal('step.insert'),
  jobId: nonEmptyString,
  /** Clamped into 0..steps.length, like the original. */
  index: integer,
  step: z.strictObject(
    {
      name: z.string(need('a string')).optional(),
      uses: z.string(need('a string')).optional(),
      run: z.string(need('a string')).optional(),
    },
    need('an object with optional name, uses and run strings'),
  ),
});
export const StepDeleteSchema = z.strictObject({
  kind: z.literal('step.delete'),
  jobId: nonEmptyString,
  stepIndex: nonNegativeInteger,
});
export const StepMoveSchema = z.strictObject({
  kind: z.literal('step.move'),
  jobId: nonEmptyString,
  fromIndex: nonNegativeInteger,
  /** Clamped into 0..steps.length-1, like the original. */
  toIndex: integer,
});
const PERMISSION_LEVELS = ['read', 'write', 'none'] as const;
export const PermissionsSetSchema = z.strictObject({
  kind: z.literal('workflow.permissions.set'),
  value: z.union(
    [z.enum(['read-all', 'write-all', 'none']), z.record(z.string().min(1), z.enum(PERMISSION_LEVELS))],
    need('"read-all", "write-all", "none" or an object mapping scopes to read/write/none'),
  ),
});
export const ConcurrencySetSchema = z.strictObject({
  kind: z.literal('workflow.concurrency.set'),
  value: z.union(
    [
      z.string().min(1),
      z.strictObject({ group: z.string().min(1), cancelInProgress: z.boolean() }),
      z.null(),
    ],
    need('a group string, {group, cancelInProgress} or null (to remove concurrency)'),
  ),
});

export const MCP_PATCH_SCHEMAS = {
  'workflow.set': WorkflowSetSchema,
  'job.set': JobSetSchema,
  'step.set': StepSetSchema,
  'with.set': WithSetSchema,
  'with.remove': WithRemoveSchema,
  'needs.add': NeedsAddSchema,
  'needs.remove': NeedsRemoveSchema,
  'trigger.setFilters': TriggerSetFiltersSchema,
} as const;

export const INTERNAL_PATCH_SCHEMAS = {
  'job.create': JobCreateSchema,
  'job.delete': JobDeleteSchema,
  'step.insert': StepInsertSchema,
  'step.delete': StepDeleteSchema,
  'step.move': StepMoveSchema,
  'workflow.permissions.set': PermissionsSetSchema,
  'workflow.concurrency.set': ConcurrencySetSchema,
} as const;

export type McpPatchKind = keyof typeof MCP_PATCH_SCHEMAS;
export type InternalPatchKind = keyof typeof INTERNAL_PATCH_SCHEMAS;
export type PatchKind = McpPatchKind | InternalPatchKind;

/** In the original's order; `workflow.apply_patch` accepts exactly these. */
export const MCP_PATCH_KINDS = Object.keys(MCP_PATCH_SCHEMAS) as readonly McpPatchKind[];
export const INTERNAL_PATCH_KINDS = Object.keys(INTERNAL_PATCH_SCHEMAS) as readonly InternalPatchKind[];

export const McpPatchSchema = z.discriminatedUnion('kind', [
  WorkflowSetSchema,
  JobSetSchema,
  StepSetSchema,
  WithSetSchema,
  WithRemoveSchema,
  NeedsAddSchema,
  NeedsRemoveSchema,
  TriggerSetFiltersSchema,
]);
export const IRPatchSchema = z.discriminatedUnion('kind', [
  ...McpPatchSchema.options,
  JobCreateSchema,
  JobDeleteSchema,
  StepInsertSchema,
  StepDeleteSchema,
  StepMoveSchema,
  PermissionsSetSchema,
  ConcurrencySetSchema,
]);

export type McpPatch = z.infer<typeof McpPatchSchema>;
export type IRPatch = z.infer<typeof IRPatchSchema>;
export type PatchOf<K extends PatchKind> = Extract<IRPatch, { kind: K }>;
