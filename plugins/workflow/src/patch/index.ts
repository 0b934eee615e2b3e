/**
 * The workflow patch engine: validating and applying IRPatches to GitHub Actions YAML
 * through yaml's CST, so that everything outside the edited nodes stays byte-identical.
 * Pure: text in, text out, no I/O and no host services.
 */
export { applyPatches, type ApplyResult } from './apply-patches.js';
export { describePatches } from './describe-patches.js';
export { diffLines, type LineDiff } from './line-diff.js';
export { PatchError } from './patch-error.js';
export {
  INTERNAL_PATCH_KINDS,
  IRPatchSchema,
  MCP_PATCH_KINDS,
  McpPatchSchema,
  ScalarishSchema,
  TRIGGER_FILTERS,
  type InternalPatchKind,
  type IRPatch,
  type McpPatch,
  type McpPatchKind,
  type PatchKind,
  type PatchOf,
  type Scalarish,
  type TriggerFilter,
} from './patch-schema.js';
export { validatePatches, type ValidateOptions } from './validate-patches.js';
