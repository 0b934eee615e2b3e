import { ChangeSet } from '@codemirror/state';
import type { Disposable, DocumentWrittenEvent, HostHooks } from '@vmark/sdk';
import { ArgumentError, DisposableStore, isDomainError, KeyedQueue, toDisposable } from '@vmark/sdk';
import type { HostDocumentStore } from '../../documents/document-store.js';
import type { DocumentText } from '../../documents/document-text.js';
import { tapDocumentWrittenAhead } from '../../hooks/tap-ahead.js';
import { type ChangeSetJson, HOST_CLIENT_ID, type UpdateJson } from '../../protocol/protocol.js';
import { minimalChange } from './minimal-change.js';

/** Who hears of confirmed updates: the documents' editors, through their connections. */
export type UpdatesListener = (documentId: string, version: number, updates: readonly UpdateJson[]) => void;

/** What an editor starts from: the text (as a string, or as UTF-8 for a frame), its version and kind. */
export interface EditorStart {
  readonly text: string;
  /** The text's UTF-8 bytes: for a 10 MB note read from disk, the bytes read, not a new encoding. */
  readonly utf8: () => Uint8Array;
  readonly version: number;
  readonly kind: string;
}

interface PendingPush {
  readonly updates: readonly UpdateJson[];
  readonly text: DocumentText;
}

/**
 * The `@codemirror/collab` authority over the host's documents. The document
 * store keeps the text; this keeps, per document, the number of confirmed
 * updates (the collab version) and turns every change into updates for the
 * editors: an editor's push is applied only against the current version (a
 * stale one is refused and the editor rebases), and any other change (an AI's
 * write, a reload from disk) becomes one minimal update from the host (a range
 * write, the change it was made with).
 */
export class DocumentAuthority implements Disposable {
  #versions = new Map<string, number>();
  #listeners = new Set<UpdatesListener>();
  /** The editor updates a store write is applying right now, keyed by document. */
  #pending = new Map<string, PendingPush>();
  readonly #queue = new KeyedQueue();
  #subscriptions = new DisposableStore();

  constructor(
    private readonly store: HostDocumentStore,
    hooks: HostHooks,
  ) {
    this.#subscriptions.add(
      // First of the taps: the editors hear of a change before the checkpoint, captures and indexes are queued.
      tapDocumentWrittenAhead(hooks, 'ui-server', (event) => this.#written(event)),
    );
  }

  /** The text and version an editor starts from. */
  snapshot(documentId: string): EditorStart {
    const document = this.store.get(documentId);
    const text = this.store.textOf(documentId);
    return {
      get text() {
        return text.string;
      },
      utf8: () => text.takeUtf8(),
      version: this.#version(documentId),
      kind: document.kind,
    };
  }

  /** The number of updates confirmed so far: the version an editor's next push must be made against. */
  version(documentId: string): number {
    return this.#version(documentId);
  }

  /**
   * Applies an editor's updates made against `version`. False when the editor
   * is behind (the updates it lacks are already on their way to it) or when
   * another change landed while this one was being written.
   * @throws ArgumentError for updates that do not fit the document;
   *   DomainError when the store refuses the change (a `beforeDocumentWrite` veto).
   */
  push(documentId: string, version: number, updates: readonly UpdateJson[]): Promise<boolean> {
    return this.#queue.run(documentId, async () => {
      if (version !== this.#version(documentId)) return false;
      const before = this.store.get(documentId);
      const text = applyUpdates(this.store.textOf(documentId), updates);
      if (updates.length === 0) return true;
      this.#pending.set(documentId, { updates, text });
      try {
        await this.store.replace(documentId, text, {
          expectedRevision: before.revision,
          origin: { kind: 'editor' },
        });
      } catch (error) {
        if (isDomainError(error) && error.code === 'STALE') return false;
        throw error;
      } finally {
        this.#pending.delete(documentId);
      }
      return true;
    });
  }

  onUpdates(listener: UpdatesListener): Disposable {
    this.#listeners.add(listener);
    return toDisposable(() => this.#listeners.delete(listener));
  }

  dispose(): void {
    this.#subscriptions.dispose();
    this.#listeners.clear();
  }

  /** Every content change of every document passes here, synchronously, in order. */
  #written({ before, after, origin }: DocumentWrittenEvent): void {
    const pending = origin.kind === 'editor' ? this.#pending.get(after.id) : undefined;
    if (pending === undefined) {
      // A range write is sent as it was made; any other change as the diff of the two texts.
      const made = this.store.changesOf(after);
      const changes = made ? (made.toJSON() as ChangeSetJson) : minimalChange(before.content, after.content);
      this.#confirm(after.id, [{ clientID: HOST_CLIENT_ID, changes }]);
      return;
    }
    this.#pending.delete(after.id);
    this.#confirm(after.id, pending.updates);
    // A `beforeDocumentWrite` tap may have rewritten the text: the editors learn of that too.
    if (this.store.textOf(after.id) !== pending.text) {
      this.#confirm(after.id, [
        { clientID: HOST_CLIENT_ID, changes: minimalChange(pending.text.string, after.content) },
      ]);
    }
  }

  #confirm(documentId: string, updates: readonly UpdateJson[]): void {
    const version = this.#version(documentId);
    this.#versions.set(documentId, version + updates.length);
    for (const listener of this.#listeners) listener(documentId, version, updates);
  }

  #version(documentId: string): number {
    return this.#versions.get(documentId) ?? 0;
  }
}

/**
 * The text after `updates`; each must span exactly the text before it. The updates are
 * composed first and applied to the store's rope (ADR 81): a keystroke in a 10 MB document
 * touches a few of its nodes, no copy of the text.
 */
function applyUpdates(content: DocumentText, updates: readonly UpdateJson[]): DocumentText {
  let composed: ChangeSet | undefined;
  for (const update of updates) {
    let changes: ChangeSet;
    try {
      changes = ChangeSet.fromJSON(update.changes);
    } catch {
      throw new ArgumentError('doc.push: an update is not a valid ChangeSet');
    }
    const length = composed === undefined ? content.length : composed.newLength;
    if (changes.length !== length) {
      throw new ArgumentError(
        `doc.push: an update spans ${changes.length} characters, the document has ${length}`,
      );
    }
    composed = composed === undefined ? changes : composed.compose(changes);
  }
  return composed === undefined ? content : content.apply(composed);
}
