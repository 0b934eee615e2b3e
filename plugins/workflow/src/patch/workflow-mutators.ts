/** Top-level edits: `workflow.set`, and the internal permissions / concurrency forms. */
import { isNullValue, mapRefOf, shapeOf } from './cst-lookup.js';
import { deleteEntry, getEntry, setEntry } from './map-entries.js';
import type { PatchOf } from './patch-schema.js';
import { requireRoot, type MutationContext } from './workflow-navigation.js';
import type { YamlRecord, YamlValue } from './yaml-value.js';

/** `["a", "b"], v` → `{a: {b: v}}`: the mappings workflow.set creates below a missing key. */
function nested(parts: readonly string[], value: YamlValue): YamlValue {
  return parts.reduceRight<YamlValue>((inner, key) => ({ [key]: inner }) satisfies YamlRecord, value);
}

/**
 * Creates missing (or empty) intermediate mappings. An intermediate that holds something
 * else — a scalar, a list, an alias — is not overwritten: the original replaced it with an
 * empty mapping, silently dropping data, so we refuse and say so.
 */
export function workflowSet(context: MutationContext, patch: PatchOf<'workflow.set'>): void {
  const root = requireRoot(context);
  if (!root) return;
  const parts = patch.path.split('.');
  const layout = context.session.layout;
  let ref = root;
  for (let i = 0; i < parts.length - 1; i++) {
    const key = parts[i] as string;
    const item = getEntry(ref, key);
    if (!item || isNullValue(item.value)) {
      setEntry(ref, key, nested(parts.slice(i + 1), patch.value), layout);
      return;
    }
    const child = mapRefOf(item);
    if (!child) {
      context.warn(`workflow ${parts.slice(0, i + 1).join('.')} is ${shapeOf(item.value)}, not a mapping`);
      return;
    }
    ref = child;
  }
  setEntry(ref, parts[parts.length - 1] as string, patch.value, layout);
}

export function permissionsSet(context: MutationContext, patch: PatchOf<'workflow.permissions.set'>): void {
  const root = requireRoot(context);
  if (root) setEntry(root, 'permissions', patch.value, context.session.layout);
}

export function concurrencySet(context: MutationContext, patch: PatchOf<'workflow.concurrency.set'>): void {
  const root = requireRoot(context);
  if (!root) return;
  const { value } = patch;
  if (value === null) {
    deleteEntry(root, 'concurrency');
    return;
  }
  const written: YamlValue =
    typeof value === 'string' ? value : { group: value.group, 'cancel-in-progress': value.cancelInProgress };
  setEntry(root, 'concurrency', written, context.session.layout);
}
