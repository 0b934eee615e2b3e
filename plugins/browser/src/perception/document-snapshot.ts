/**
 * The snapshot entries of one document (one frame), before its iframes are read. Chromium's
 * accessibility tree says what each node is; the isolated world gives the elements their refs:
 *
 * 1. the world collects the candidate elements, which CDP's deep serialization names by
 *    backend node id (one call, however many elements);
 * 2. the accessibility tree, planned into entries (ax-plan.ts), names nodes by the same ids;
 *    a kept node that is no candidate (inside a closed shadow root, say) is resolved alone;
 * 3. the world gives refs to the picks, and entries to every rendered control the tree left
 *    out (an `<a>` without href, a button under aria-hidden), placed in document order.
 *
 * A document of more than LARGE_DOCUMENT elements is read within a budget instead: the first
 * candidates in document order, each asked of the accessibility tree on its own, no text.
 *
 * A document unchanged since its last read (the same generation and epoch token, see
 * snapshot-cache.ts) is not read again: its last snapshot is the answer, refs and all.
 */
import { NAME_CHARS, planEntries, type Checked, type PlanOptions, type PlannedEntry } from './ax-plan.js';
import type { DeepSerializedValue } from './cdp-types.js';
import type { FrameDocument } from './page-frames.js';
import type { RefTable } from './ref-table.js';
import type { SnapshotCache } from './snapshot-cache.js';
import { libraryCall } from './world/world-library.js';
import type { AssignResult, SupplementEntry } from './world/world-snapshot.js';

/** One entry of `read`'s snapshot, as a client sees it. */
export interface SnapshotEntry {
  readonly role: string;
  readonly name: string;
  readonly ref?: string;
  readonly level?: number;
  readonly checked?: Checked;
  readonly disabled?: true;
  readonly upload?: true;
}

/** An entry with what the reader still needs: the iframe whose document follows it, whether it shows. */
export interface DocumentEntry extends SnapshotEntry {
  readonly frameOwner?: number;
  /** Its element is not rendered (a closed menu's link, say): not what a person sees to operate. */
  readonly unrendered?: true;
}

export interface DocumentSnapshot {
  readonly entries: DocumentEntry[];
  /** Some were left out (a budget) or a control's name was cut. */
  readonly truncated: boolean;
}

/** Past this many elements a document is read within a budget (the tree of a huge table takes minutes). */
export const LARGE_DOCUMENT = 8000;
/** Entries a snapshot holds at most (vmark-notes §3.2). */
export const MAX_ENTRIES = 2000;

interface Candidate {
  readonly backendNodeId: number;
  readonly upload: boolean;
}

interface Collected {
  readonly batch: number;
  readonly more: boolean;
  readonly candidates: readonly Candidate[];
}

/** Each read's remote objects in a group of their own, released when it is done. */
let reads = 0;

export async function snapshotDocument(
  document: FrameDocument,
  refs: RefTable,
  generation: number,
  plan: PlanOptions,
  cache?: SnapshotCache,
): Promise<DocumentSnapshot> {
  // The size decides how to read; the epoch whether to read at all.
  const state = await document.world.library<{ size: number; epoch: string }>(
    document.frameId,
    'snapshot',
    'state',
    [],
  );
  const kept = cache?.get(document, generation, state.epoch) ?? null;
  if (kept !== null) {
    // The refs are the world's still; the table hears of them again (it may have let some go).
    const refsOf = kept.entries.flatMap((entry) => (entry.ref === undefined ? [] : [entry.ref]));
    await refs.allocate(
      generation,
      document,
      (next) => Promise.resolve({ next }),
      () => refsOf,
    );
    return kept;
  }
  const session = await document.world.session();
  const group = `vmark-read-${++reads}`;
  try {
    const large = state.size > LARGE_DOCUMENT;
    let collected: Collected;
    let planned: PlannedEntry[];
    if (large) {
      collected = await collect(document, MAX_ENTRIES, group);
      planned = await planCandidates(document, collected);
    } else {
      const [got, tree] = await Promise.all([
        collect(document, MAX_ENTRIES * 4, group),
        session.send('Accessibility.getFullAXTree', { frameId: document.frameId }),
      ]);
      collected = got;
      planned = planEntries(tree.nodes, plan);
    }
    const elements = planned.filter((entry) => entry.kind === 'element').slice(0, MAX_ENTRIES);
    const byId = new Map(collected.candidates.map((c, index) => [c.backendNodeId, index]));
    const missing = elements.filter((entry) => !byId.has(entry.backendNodeId));
    const contextId = await document.world.contextId(document.frameId);
    const resolved = await Promise.all(
      missing.map((entry) =>
        session
          .send('DOM.resolveNode', {
            backendNodeId: entry.backendNodeId,
            executionContextId: contextId,
            objectGroup: group,
          })
          .then(({ object }) => object.objectId ?? null)
          .catch(() => null),
      ),
    );
    const extras: string[] = [];
    const extraIndex = new Map<number, number>();
    missing.forEach((entry, i) => {
      const objectId = resolved[i];
      if (objectId === null || objectId === undefined) return;
      extraIndex.set(entry.backendNodeId, extras.length);
      extras.push(objectId);
    });
    // A pick past the batch and the extras names no element: the world answers null for it.
    const gone = collected.candidates.length + extras.length + 1;
    const picks = elements.map((entry) => {
      const index = byId.get(entry.backendNodeId);
      if (index !== undefined) return index;
      const extra = extraIndex.get(entry.backendNodeId);
      return extra === undefined ? gone : -(extra + 1);
    });
    const assigned = await refs.allocate(
      generation,
      document,
      (next) =>
        document.world.library<AssignResult>(
          document.frameId,
          'snapshot',
          'assign',
          [generation, next, collected.batch, picks, large ? 'batch' : 'document'],
          extras,
        ),
      (answer) => [...answer.refs, ...answer.supplement.map((s) => s.ref)],
    );
    const uploads = new Set(collected.candidates.filter((c) => c.upload).map((c) => c.backendNodeId));
    const entries = assemble(planned, elements, assigned, uploads);
    const cut = elements.some((entry) => entry.cut) || assigned.supplement.some((s) => s.cut);
    const snapshot: DocumentSnapshot = {
      entries,
      truncated:
        collected.more || cut || elements.length < planned.filter((e) => e.kind === 'element').length,
    };
    // An element the world could not offer (in a closed shadow root, say) is somewhere its
    // epoch does not watch: such a document is read afresh every time.
    if (missing.length === 0) cache?.set(document, generation, state.epoch, snapshot);
    else cache?.drop(document);
    return snapshot;
  } finally {
    // Not waited for: the session keeps the order, so it lands before the next read's calls.
    session.send('Runtime.releaseObjectGroup', { objectGroup: group }).catch(() => undefined);
  }
}

/** The planned entries with their refs, and the supplement placed after the pick it follows. */
function assemble(
  planned: readonly PlannedEntry[],
  elements: readonly Extract<PlannedEntry, { kind: 'element' }>[],
  assigned: AssignResult,
  uploads: ReadonlySet<number>,
): DocumentEntry[] {
  const after = new Map<number, SupplementEntry[]>();
  for (const entry of assigned.supplement) {
    const list = after.get(entry.after) ?? [];
    list.push(entry);
    after.set(entry.after, list);
  }
  const unrendered = new Set(assigned.unrendered);
  const out: DocumentEntry[] = [];
  /** The text of the last supplement entry: the tree's text that follows it says the same. */
  let said = '';
  const pushSupplement = (index: number) => {
    for (const s of after.get(index) ?? []) {
      said = s.name;
      out.push({
        role: s.role,
        name: s.cut ? `${s.name.slice(0, NAME_CHARS - 1)}…` : s.name,
        ref: s.ref,
        ...(s.checked === undefined ? {} : { checked: s.checked }),
        ...(s.disabled ? { disabled: true as const } : {}),
        ...(s.upload ? { upload: true as const } : {}),
      });
    }
  };
  pushSupplement(-1);
  const position = new Map(elements.map((entry, index) => [entry, index]));
  for (const entry of planned) {
    if (entry.kind === 'text') {
      const name =
        said !== '' && entry.name.startsWith(said) ? entry.name.slice(said.length).trim() : entry.name;
      said = '';
      if (/[\p{L}\p{N}]/u.test(name)) out.push({ role: 'text', name });
      continue;
    }
    said = '';
    const index = position.get(entry);
    if (index === undefined) continue;
    const ref = assigned.refs[index];
    if (ref !== null && ref !== undefined) {
      out.push({
        role: entry.role,
        name: entry.name,
        ref,
        ...(entry.level === undefined ? {} : { level: entry.level }),
        ...(entry.checked === undefined ? {} : { checked: entry.checked }),
        ...(entry.disabled ? { disabled: true as const } : {}),
        ...(uploads.has(entry.backendNodeId) ? { upload: true as const } : {}),
        ...(entry.frame ? { frameOwner: entry.backendNodeId } : {}),
        ...(unrendered.has(index) ? { unrendered: true as const } : {}),
      });
    }
    pushSupplement(index);
  }
  return out;
}

/** The world's candidates, named by backend node id through deep serialization. */
async function collect(document: FrameDocument, budget: number, group: string): Promise<Collected> {
  const result = await document.world.call(
    document.frameId,
    libraryCall('snapshot', 'collect'),
    [{ value: budget }],
    {
      deep: true,
      objectGroup: group,
    },
  );
  const fields = new Map<string, DeepSerializedValue>(
    (result.deepSerializedValue?.value as [string, DeepSerializedValue][] | undefined) ?? [],
  );
  const number = (key: string) => {
    const value: unknown = fields.get(key)?.value;
    return typeof value === 'number' ? value : 0;
  };
  const nodes = (fields.get('candidates')?.value as DeepSerializedValue[] | undefined) ?? [];
  const candidates: Candidate[] = [];
  for (const node of nodes) {
    const value = node.value as
      { backendNodeId?: number; localName?: string; attributes?: Record<string, string> } | undefined;
    // A node seen twice carries only a reference the second time; the first has its id.
    if (typeof value?.backendNodeId !== 'number') continue;
    candidates.push({
      backendNodeId: value.backendNodeId,
      upload: value.localName === 'input' && value.attributes?.type?.toLowerCase() === 'file',
    });
  }
  return { batch: number('batch'), more: fields.get('more')?.value === true, candidates };
}

/** A large document: each candidate asked of the accessibility tree on its own, in document order. */
async function planCandidates(document: FrameDocument, collected: Collected): Promise<PlannedEntry[]> {
  const session = await document.world.session();
  const chosen = collected.candidates.slice(0, MAX_ENTRIES);
  const nodes = await Promise.all(
    chosen.map((candidate) =>
      session
        .send('Accessibility.getPartialAXTree', {
          backendNodeId: candidate.backendNodeId,
          fetchRelatives: false,
        })
        .then(({ nodes: found }) =>
          found.filter((n) => n.backendDOMNodeId === candidate.backendNodeId && !n.ignored),
        )
        .catch(() => []),
    ),
  );
  // Each alone, as a root of its own: its text is its name, there is no text between.
  return nodes.flatMap((found) =>
    planEntries(found, { text: false, landmarks: true }).filter((e) => e.kind === 'element'),
  );
}
