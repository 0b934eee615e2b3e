/**
 * Internal helper, not an IRPatch kind and not reachable over MCP: removes the entry at a
 * key path (the inverse of a `workflow.set` that added it). The tests use it to check that
 * an added key comes out again byte for byte.
 */
import { mapRefOf, type MapRef } from './cst-lookup.js';
import { openSession, printSession } from './edit-session.js';
import { deleteEntry, getEntry, setEntry } from './map-entries.js';
import { PatchError } from './patch-error.js';

export function removeWorkflowPath(
  source: string,
  path: readonly string[],
): { text: string; changed: boolean } {
  const session = openSession(source);
  if (session.problem !== undefined)
    throw new PatchError(`The workflow YAML does not parse: ${session.problem}`);
  let ref: MapRef | undefined = session.root;
  let parent: { ref: MapRef; key: string } | undefined;
  for (const key of path.slice(0, -1)) {
    const item: ReturnType<typeof getEntry> = ref && getEntry(ref, key);
    const child: MapRef | undefined = item ? mapRefOf(item) : undefined;
    if (!ref || !child) return { text: source, changed: false };
    parent = { ref, key };
    ref = child;
  }
  const last = path[path.length - 1];
  if (!ref || last === undefined) return { text: source, changed: false };
  if (deleteEntry(ref, last) === 'emptied' && parent) setEntry(parent.ref, parent.key, {}, session.layout);
  const text = printSession(session);
  return { text, changed: text !== source };
}
