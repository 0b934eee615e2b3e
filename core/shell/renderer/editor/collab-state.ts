import {
  Annotation,
  type ChangeSet,
  type EditorState,
  type Extension,
  Facet,
  StateField,
  Transaction,
} from '@codemirror/state';

/**
 * The editor's side of the collab protocol: the version the host has confirmed and the local
 * changes it has not. It keeps @codemirror/collab's rules (the same `receiveUpdates` rebase), but
 * not its `origin`: the library keeps with each unconfirmed change the transaction that made it,
 * and so the state before it. @codemirror/language's parse state keeps the state of the last
 * change (until the next one), whose unconfirmed change is always the one just typed: each
 * keystroke's state stays reachable from the next, with its syntax tree, as long as the editor
 * is open (ADR 97). vmark sends no transaction metadata, so it keeps none.
 */

/** A change as the host confirms it: the text change and the editor that made it. */
export interface CollabUpdate {
  readonly changes: ChangeSet;
  readonly clientID: string;
}

class CollabState {
  constructor(
    /** The version up to which the host has confirmed changes. */
    readonly version: number,
    /** Local changes the host has not confirmed yet, oldest first. */
    readonly unconfirmed: readonly CollabUpdate[],
  ) {}
}

interface CollabConfig {
  readonly startVersion: number;
  readonly clientID: string;
}

const collabConfig = Facet.define<CollabConfig, CollabConfig>({
  combine: (configs) => configs[0] ?? { startVersion: 0, clientID: '' },
});

const collabReceive = Annotation.define<CollabState>();

const collabField = StateField.define<CollabState>({
  create: (state) => new CollabState(state.facet(collabConfig).startVersion, []),
  update(collab, tr) {
    const received = tr.annotation(collabReceive);
    if (received !== undefined) return received;
    if (tr.changes.empty) return collab;
    const { clientID } = tr.startState.facet(collabConfig);
    return new CollabState(collab.version, [...collab.unconfirmed, { changes: tr.changes, clientID }]);
  },
});

/** The collab field, starting at the host's `startVersion`; a random client id unless given. */
export function collab(config: { startVersion: number; clientID?: string }): Extension {
  const clientID = config.clientID ?? Math.floor(Math.random() * 1e9).toString(36);
  return [collabField, collabConfig.of({ startVersion: config.startVersion, clientID })];
}

/** The local changes still to be sent to the host, oldest first. */
export function sendableUpdates(state: EditorState): readonly CollabUpdate[] {
  return state.field(collabField).unconfirmed;
}

/** The version up to which the host has confirmed changes. */
export function getSyncedVersion(state: EditorState): number {
  return state.field(collabField).version;
}

/**
 * The transaction that moves the state over updates the host confirmed, in order: this editor's
 * own leave the unconfirmed list, other editors' change the text and the unconfirmed changes are
 * rebased over them (as @codemirror/collab's `receiveUpdates`).
 */
export function receiveUpdates(state: EditorState, updates: readonly CollabUpdate[]): Transaction {
  const { version, unconfirmed: pending } = state.field(collabField);
  const { clientID } = state.facet(collabConfig);
  let changes: ChangeSet | null = null;
  let own = 0;
  for (const update of updates) {
    const ours = own < pending.length ? pending[own] : undefined;
    if (ours !== undefined && ours.clientID === update.clientID) {
      if (changes !== null) changes = changes.map(ours.changes, true);
      own++;
    } else {
      changes = changes === null ? update.changes : changes.compose(update.changes);
    }
  }
  let unconfirmed = own > 0 ? pending.slice(own) : pending;
  if (unconfirmed.length > 0 && changes !== null) {
    // The text already holds the unconfirmed changes: each moves over the received ones, and
    // the received ones over it, to apply after them.
    let over: ChangeSet = changes;
    unconfirmed = unconfirmed.map((update) => {
      const rebased = update.changes.map(over);
      over = over.map(update.changes, true);
      return { changes: rebased, clientID };
    });
    changes = over;
  }
  const next = new CollabState(version + updates.length, unconfirmed);
  if (changes === null) return state.update({ annotations: [collabReceive.of(next)] });
  return state.update({
    changes,
    annotations: [Transaction.addToHistory.of(false), Transaction.remote.of(true), collabReceive.of(next)],
    filter: false,
  });
}

/**
 * What makes a local transaction apply a change the host has already confirmed (its own
 * change, as an AI's write or a reload from disk): the change counts as confirmed at the next
 * version in the same transaction, so the view updates once and nothing is sent back. Only with
 * no local change unconfirmed: the host's change goes before those, not after.
 */
export function confirmedByHost(state: EditorState): Annotation<unknown> {
  const { version, unconfirmed } = state.field(collabField);
  if (unconfirmed.length > 0)
    throw new Error('a host change applied locally must come before unconfirmed ones');
  return collabReceive.of(new CollabState(version + 1, []));
}
