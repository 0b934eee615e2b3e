/**
 * Capture (vmark-notes §7.3 provenance): the entries that record one MCP write as a
 * `transformation` of the written document from the documents the client read before it.
 * Pure: the caller has already given every document its identity, reads the ledger, and
 * appends what this returns, in order.
 *
 * Each document is pinned to the revision whose content the client actually saw (or wrote
 * over). Content the ledger has never seen — a file the ledger does not know yet, an edit
 * made outside — is first recorded as an `external` revision, as a scan would record it, so
 * the model's transformation always has real revisions to point at.
 */
import { canonicalize, contentHash, readIdentity, revisionId } from '../kernel/identity/index.js';
import {
  compareEntries,
  createEntry,
  isKind,
  type EntryFactory,
  type LedgerEntry,
} from '../kernel/ledger/index.js';
import { normUuid } from '../kernel/projection/index.js';
import { observationIdem, OBSERVED_EXTERNAL } from '../kernel/scan/index.js';

export interface CapturedDocument {
  /** Workspace-relative, `/`-separated. */
  readonly path: string;
  /** The text as served (an input) or as written (the output). */
  readonly text: string;
  /**
   * The identity, for an input served before it had one (the host gave the file one since);
   * otherwise the text must carry a `vmark.id`.
   */
  readonly identity?: { readonly object: string; readonly schema: string | null };
}

export interface CaptureRequest {
  readonly output: CapturedDocument;
  /** The output's text before the write; null for a file the write created. */
  readonly before: string | null;
  readonly inputs: readonly CapturedDocument[];
  readonly agent: { readonly type: 'model' | 'human'; readonly id?: string };
  readonly intent: { readonly kind: string; readonly summary: string };
  readonly confidence: 'exact' | 'inferred';
}

export class CaptureError extends Error {
  override readonly name = 'CaptureError';
}

interface Fingerprint {
  readonly object: string;
  readonly schema: string | null;
  readonly hash: string;
}

function canonicalText(text: string, path: string): { text: string; hash: string } {
  const bytes = Buffer.from(text, 'utf8');
  const canonical = canonicalize(bytes);
  if (canonical.kind !== 'text') throw new CaptureError(`${path} is not text`);
  return { text: canonical.text, hash: contentHash(canonical, bytes) };
}

function fingerprint(doc: CapturedDocument): Fingerprint {
  const { text, hash } = canonicalText(doc.text, doc.path);
  const identity = readIdentity(text);
  if (identity.id !== null) return { object: identity.id, schema: identity.schema, hash };
  if (doc.identity === undefined) throw new CaptureError(`${doc.path} carries no vmark.id`);
  return { object: doc.identity.object.toLowerCase(), schema: doc.identity.schema, hash };
}

/**
 * What the ledger records of each object: registrations, revisions by content, and heads.
 * Entries the plan adds are applied as they are made, so that planning several writes in a
 * row gives what planning each after the previous one's append would.
 */
class Known {
  readonly #registered = new Set<string>();
  /** object → content hash → revisions with that content. */
  readonly #byHash = new Map<string, Map<string, string[]>>();
  /** object → every revision recorded, and the ones some revision names as its parent. */
  readonly #revisions = new Map<string, Set<string>>();
  readonly #parents = new Map<string, Set<string>>();

  constructor(entries: readonly LedgerEntry[]) {
    for (const entry of [...entries].sort(compareEntries)) this.add(entry);
  }

  add(entry: LedgerEntry): void {
    if (isKind(entry, 'object-registered')) this.#registered.add(normUuid(entry.body.object));
    if (!isKind(entry, 'transformation')) return;
    for (const out of entry.body.outputs) {
      const object = normUuid(out.object);
      setOf(this.#revisions, object).add(out.revision);
      const named = setOf(this.#parents, object);
      for (const parent of out.parents) named.add(parent);
      let hashes = this.#byHash.get(object);
      if (!hashes) this.#byHash.set(object, (hashes = new Map<string, string[]>()));
      const list = hashes.get(out.content_hash) ?? [];
      if (!list.includes(out.revision)) list.push(out.revision);
      hashes.set(out.content_hash, list);
    }
  }

  isRegistered(object: string): boolean {
    return this.#registered.has(object) || this.#byHash.has(object);
  }

  /** Revisions no other revision of the object names as a parent, sorted (as the revision graph's). */
  heads(object: string): readonly string[] {
    const key = normUuid(object);
    const named = this.#parents.get(key);
    return [...(this.#revisions.get(key) ?? [])].filter((r) => !named?.has(r)).sort();
  }

  /** A revision with this content, a head by preference. */
  revisionWith(object: string, hash: string): string | null {
    const candidates = this.#byHash.get(object)?.get(hash) ?? [];
    const heads = this.heads(object);
    return candidates.find((r) => heads.includes(r)) ?? candidates[0] ?? null;
  }
}

function setOf(map: Map<string, Set<string>>, key: string): Set<string> {
  let set = map.get(key);
  if (!set) map.set(key, (set = new Set<string>()));
  return set;
}

export function planCapture(
  entries: readonly LedgerEntry[],
  request: CaptureRequest,
  factory: EntryFactory,
): LedgerEntry[] {
  return planWith(new Known(entries), request, factory);
}

/**
 * The entries of several writes in the order they were made, each planned as if the entries
 * of the ones before it were already in the ledger: one pass over the ledger for all of them.
 */
export function planCaptures(
  entries: readonly LedgerEntry[],
  requests: readonly CaptureRequest[],
  factory: EntryFactory,
): LedgerEntry[][] {
  const known = new Known(entries);
  return requests.map((request) => planWith(known, request, factory));
}

function planWith(known: Known, request: CaptureRequest, factory: EntryFactory): LedgerEntry[] {
  const planned: LedgerEntry[] = [];
  const emit = (entry: LedgerEntry) => {
    planned.push(entry);
    known.add(entry);
  };

  const register = (doc: CapturedDocument, print: Fingerprint, derivedFrom: readonly string[]) => {
    if (known.isRegistered(print.object)) return;
    emit(
      createEntry(
        'object-registered',
        { object: print.object, path: doc.path, schema: print.schema, derived_from: [...derivedFrom] },
        factory,
      ),
    );
  };

  /** The revision holding `hash`, recording it as an outside edit when the ledger lacks it. */
  const pin = (doc: CapturedDocument, print: Fingerprint, summary: string): string => {
    const existing = known.revisionWith(print.object, print.hash);
    if (existing !== null) return existing;
    const parents = [...known.heads(print.object)].sort();
    const revision = revisionId(print.hash, parents);
    emit(
      createEntry(
        'transformation',
        {
          inputs: [],
          outputs: [{ object: print.object, revision, content_hash: print.hash, parents }],
          agent: { type: 'external' },
          intent: { kind: OBSERVED_EXTERNAL, summary: `${summary}: ${doc.path}` },
          confidence: 'unknown',
        },
        factory,
        // The same fact a scan would record, under the same key, so the two dedupe.
        observationIdem(['transformation', print.object, revision]),
      ),
    );
    return revision;
  };

  const out = fingerprint(request.output);
  const inputs: { object: string; revision: string }[] = [];
  for (const doc of request.inputs) {
    const print = fingerprint(doc);
    // Reading a document and writing it back is editing it, not deriving it from itself.
    if (print.object === out.object) continue;
    if (inputs.some((i) => i.object === print.object)) continue;
    register(doc, print, []);
    inputs.push({ object: print.object, revision: pin(doc, print, 'read as found') });
  }

  register(
    request.output,
    out,
    inputs.map((i) => i.object),
  );
  const parents: string[] = [];
  if (request.before !== null) {
    // The text before a first capture has no identity yet; masked, it hashes the same either way.
    const before = { ...out, hash: canonicalText(request.before, request.output.path).hash };
    parents.push(pin(request.output, before, 'found before the write'));
  }
  // Identity lines are masked from the hash: a write that changed only them changed nothing.
  if (parents.length === 1 && known.revisionWith(out.object, out.hash) === parents[0]) return planned;
  const revision = revisionId(out.hash, parents);
  emit(
    createEntry(
      'transformation',
      {
        inputs: inputs.map((i) => ({ object: i.object, revision: i.revision, role: 'direct' as const })),
        outputs: [{ object: out.object, revision, content_hash: out.hash, parents }],
        agent: request.agent.id === undefined ? { type: request.agent.type } : { ...request.agent },
        intent: { ...request.intent },
        confidence: request.confidence,
      },
      factory,
    ),
  );
  return planned;
}
