/**
 * The objects the ledger knows, as scan reconciliation needs them: where each was last seen,
 * what its head revision(s) hold and which contents it has ever recorded. Transformation outputs carry no path (bodies.ts:
 * `object, revision, content_hash, parents`), so paths come only from `object-registered`
 * entries (latest in ledger order wins), optionally overridden by paths a caller has observed
 * since (moves are index updates, never ledger entries).
 */
import { compareEntries, isKind, type LedgerEntry } from '../ledger/index.js';
import { buildRevisionGraph, normUuid, type RevisionGraph } from '../projection/index.js';

export interface KnownHead {
  readonly revision: string;
  readonly contentHash: string;
}

export interface KnownObject {
  /** Lower-case UUID. */
  readonly object: string;
  /** Last known workspace-relative path; null when only transformations name the object. */
  readonly path: string | null;
  readonly schema: string | null;
  /** Current heads, sorted by revision; empty when the object has no recorded revision. */
  readonly heads: readonly KnownHead[];
  /** The content hash of every recorded revision, heads or not: states the ledger already holds. */
  readonly contentHashes: ReadonlySet<string>;
}

export type ObjectIndex = ReadonlyMap<string, KnownObject>;

export interface ObjectIndexOptions {
  /** Paths observed after the ledger (e.g. moves a caller has applied), by object id. */
  readonly observedPaths?: ReadonlyMap<string, string>;
  /** The revision graph of these very entries, when the caller keeps one. */
  readonly graph?: RevisionGraph;
}

export function buildObjectIndex(
  entries: readonly LedgerEntry[],
  options: ObjectIndexOptions = {},
): ObjectIndex {
  const ordered = [...entries].sort(compareEntries);
  const graph = options.graph ?? buildRevisionGraph(ordered);
  const registered = new Map<string, { path: string; schema: string | null }>();
  // The content hash of each recorded revision; as in the graph, the first record wins.
  const hashes = new Map<string, Map<string, string>>();
  const ids = new Set<string>();

  for (const entry of ordered) {
    if (isKind(entry, 'object-registered')) {
      const object = normUuid(entry.body.object);
      ids.add(object);
      registered.set(object, { path: entry.body.path, schema: entry.body.schema ?? null });
    } else if (isKind(entry, 'transformation')) {
      for (const out of entry.body.outputs) {
        const object = normUuid(out.object);
        ids.add(object);
        let revs = hashes.get(object);
        if (!revs) hashes.set(object, (revs = new Map<string, string>()));
        if (!revs.has(out.revision)) revs.set(out.revision, out.content_hash);
      }
    }
  }

  const index = new Map<string, KnownObject>();
  for (const object of [...ids].sort()) {
    const reg = registered.get(object);
    const heads = graph.heads(object).flatMap((revision): KnownHead[] => {
      const contentHash = hashes.get(object)?.get(revision);
      return contentHash === undefined ? [] : [{ revision, contentHash }];
    });
    const observed = options.observedPaths?.get(object);
    index.set(object, {
      object,
      path: observed ?? reg?.path ?? null,
      schema: reg?.schema ?? null,
      heads,
      contentHashes: new Set(hashes.get(object)?.values()),
    });
  }
  return index;
}
