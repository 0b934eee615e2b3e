import { confirmedByHost, getSyncedVersion, receiveUpdates, sendableUpdates } from './collab-state.js';
import { selectionAfterHostChange } from './host-selection.js';
import { isolateHistory } from '@codemirror/commands';
import { ChangeSet, Transaction } from '@codemirror/state';
import type { EditorView } from '@codemirror/view';
import { type ChangeSetJson, HOST_CLIENT_ID, type UpdateJson } from '../../../protocol/protocol.js';
import type { Connection } from '../connection.js';

/**
 * Keeps one editor in step with the host, the authority over the text: local
 * changes are pushed against the synced version, confirmed updates (this
 * editor's, other editors', the host's) come back in order and are rebased over.
 */
export class CollabSync {
  #pushing = false;
  #idle: (() => void)[] = [];

  constructor(
    private readonly view: EditorView,
    private readonly tabId: string,
    private readonly connection: Connection,
    /** When the editor no longer fits the host's history (missed an update): start over from the host. */
    private readonly resync: () => void,
    private readonly refused: (error: unknown) => void,
  ) {}

  /** Call after every local change. */
  changed(): void {
    queueMicrotask(() => void this.#push());
  }

  /** Confirmed updates from the host, starting at `version`. */
  receive(version: number, updates: readonly UpdateJson[]): void {
    if (version !== getSyncedVersion(this.view.state)) return this.resync();
    // What the person sees stays put through lines another writer adds or removes above it:
    // the view keeps its scroll anchor through every change (ADR 104).
    for (const update of updates) {
      const changes = ChangeSet.fromJSON(update.changes);
      if (update.clientID === HOST_CLIENT_ID && sendableUpdates(this.view.state).length === 0) {
        this.#applyUndoably(changes);
      } else {
        this.view.dispatch(receiveUpdates(this.view.state, [{ changes, clientID: update.clientID }]));
      }
    }
    this.changed();
  }

  /** Resolves once every local change has been confirmed by the host (before a save). */
  flushed(): Promise<void> {
    if (!this.#pushing && sendableUpdates(this.view.state).length === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idle.push(resolve));
  }

  /**
   * A host change (an AI's write, a reload from disk) that the person can undo
   * like their own edit, as one step of its own (ADR 48): applied as a local transaction that counts it as
   * confirmed in the same step (one view update, ADR 104), so collab never sends it back.
   */
  #applyUndoably(changes: ChangeSet): void {
    this.view.dispatch({
      changes,
      selection: selectionAfterHostChange(this.view.state.selection, changes),
      annotations: [
        isolateHistory.of('full'),
        Transaction.userEvent.of('input.host'),
        confirmedByHost(this.view.state),
      ],
    });
  }

  async #push(): Promise<void> {
    const updates = sendableUpdates(this.view.state);
    if (this.#pushing || updates.length === 0) return this.#settle();
    this.#pushing = true;
    const version = getSyncedVersion(this.view.state);
    try {
      await this.connection.request('doc.push', {
        tabId: this.tabId,
        version,
        updates: updates.map((u) => ({ clientID: u.clientID, changes: u.changes.toJSON() as ChangeSetJson })),
      });
    } catch (error) {
      this.#pushing = false;
      this.refused(error);
      return this.resync();
    }
    this.#pushing = false;
    // Refused as behind: the missing updates came first and were rebased over; push what is left.
    if (getSyncedVersion(this.view.state) !== version) return this.#push();
    this.#settle();
  }

  #settle(): void {
    if (this.#pushing || sendableUpdates(this.view.state).length > 0) return;
    for (const resolve of this.#idle.splice(0)) resolve();
  }
}
