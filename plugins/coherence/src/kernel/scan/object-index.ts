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
  const builder = new ObjectIndexBuilder(graph);
  builder.append(ordered);
  return builder.index(options.observedPaths);
}

/**
 * The object index grown entry by entry, fed in ledger order (what an incremental reader
 * appended): only the objects an appended entry names are worked out again. `graph` must
 * already hold every transformation appended (it is shared with the projection).
 */
export class ObjectIndexBuilder {
  readonly #registered = new Map<string, { path: string; schema: string | null }>();
  // The content hash of each recorded revision; as in the graph, the first record wins.
  readonly #hashes = new Map<string, Map<string, string>>();
  /** Each object as the ledger alone says (no observed paths), in object id order. */
  #known = new Map<string, KnownObject>();

  constructor(private readonly graph: RevisionGraph) {}

  append(entries: readonly LedgerEntry[]): void {
    const touched = new Set<string>();
    for (const entry of entries) {
      if (isKind(entry, 'object-registered')) {
        const object = normUuid(entry.body.object);
        touched.add(object);
        this.#registered.set(object, { path: entry.body.path, schema: entry.body.schema ?? null });
      } else if (isKind(entry, 'transformation')) {
        for (const out of entry.body.outputs) {
          const object = normUuid(out.object);
          touched.add(object);
          let revs = this.#hashes.get(object);
          if (!revs) this.#hashes.set(object, (revs = new Map<string, string>()));
          if (!revs.has(out.revision)) revs.set(out.revision, out.content_hash);
        }
      }
    }
    let added = false;
    for (const object of touched) {
      added ||= !this.#known.has(object);
      this.#known.set(object, this.#derive(object));
    }
    // A new object joins in id order, as a full build lists them.
    if (added) this.#known = new Map([...this.#known].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  }

  /** The index, with the paths a caller observed since (moves) laid over the ledger's. */
  index(observedPaths?: ReadonlyMap<string, string>): ObjectIndex {
    const index = new Map(this.#known);
    for (const [object, path] of observedPaths ?? []) {
      const known = index.get(object);
      if (known !== undefined) index.set(object, { ...known, path });
    }
    return index;
  }

  #derive(object: string): KnownObject {
    const reg = this.#registered.get(object);
    const hashes = this.#hashes.get(object);
    const heads = this.graph.heads(object).flatMap((revision): KnownHead[] => {
      const contentHash = hashes?.get(revision);
      return contentHash === undefined ? [] : [{ revision, contentHash }];
    });
    return {
      object,
      path: reg?.path ?? null,
      schema: reg?.schema ?? null,
      heads,
      contentHashes: new Set(hashes?.values()),
    };
  }
}
