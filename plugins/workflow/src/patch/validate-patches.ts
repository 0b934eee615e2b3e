/**
 * Shape check of a `patches` argument. The original checked only the array, each entry
 * being an object and its `kind`; those messages (and their order: the whole batch is
 * scanned for them first) are kept verbatim. Field-level problems come after and name
 * the field, so an AI can fix its call without guessing.
 */
import type { z } from '@vmark/sdk';
import { PatchError } from './patch-error.js';
import { INTERNAL_PATCH_SCHEMAS, MCP_PATCH_SCHEMAS, type IRPatch, type PatchKind } from './patch-schema.js';

export interface ValidateOptions {
  /** The internal kinds (job.create, step.move, …) are refused over MCP. */
  allowInternal: boolean;
}

function schemaFor(kind: string, allowInternal: boolean): z.ZodType<IRPatch> | undefined {
  if (Object.hasOwn(MCP_PATCH_SCHEMAS, kind))
    return MCP_PATCH_SCHEMAS[kind as keyof typeof MCP_PATCH_SCHEMAS];
  if (allowInternal && Object.hasOwn(INTERNAL_PATCH_SCHEMAS, kind))
    return INTERNAL_PATCH_SCHEMAS[kind as keyof typeof INTERNAL_PATCH_SCHEMAS];
  return undefined;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `step.name`, `value[1]`: the way a caller would write the path in code. */
function fieldPath(path: readonly PropertyKey[]): string {
  return path.map((part) => (typeof part === 'number' ? `[${part}]` : `.${String(part)}`)).join('');
}

function describeIssue(issue: z.core.$ZodIssue, kind: PatchKind): string {
  if (issue.code === 'unrecognized_keys') {
    const [first] = issue.keys;
    return `${fieldPath([...issue.path, first ?? ''])} is not a field of ${kind}`;
  }
  return `${fieldPath(issue.path)} ${issue.message}`;
}

export function validatePatches(input: unknown, { allowInternal }: ValidateOptions): IRPatch[] {
  if (!Array.isArray(input)) throw new PatchError('patches must be an array');
  const entries: readonly unknown[] = input;
  entries.forEach((entry, index) => {
    if (!isPlainObject(entry)) throw new PatchError(`patches[${index}] must be an object`, index);
    const kind = entry['kind'];
    if (typeof kind !== 'string' || schemaFor(kind, allowInternal) === undefined)
      throw new PatchError(`patches[${index}].kind is missing or invalid: ${String(kind)}`, index);
  });
  return entries.map((entry, index) => {
    const kind = (entry as { kind: PatchKind }).kind;
    const result = (schemaFor(kind, allowInternal) as z.ZodType<IRPatch>).safeParse(entry);
    if (result.success) return result.data;
    const [issue] = result.error.issues;
    const detail = issue === undefined ? ' is invalid' : describeIssue(issue, kind);
    throw new PatchError(`patches[${index}]${detail}`, index);
  });
}
