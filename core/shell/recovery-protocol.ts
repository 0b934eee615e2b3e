/**
 * The WebSocket messages of the recovered-edits notice (ADR 34): types only, merged into
 * `protocol.ts`'s `Requests` and `ServerMessage`, shared by the host's UI server and the renderer.
 */

/** Unsaved edits an earlier editor host kept when it stopped, offered back to the person. */
export interface UiRecoveredEdit {
  readonly id: string;
  /** Absolute path of the document's file; null for an untitled document. */
  readonly filePath: string | null;
  /** The file's name, or `Untitled`. */
  readonly title: string;
  /** ISO 8601: when they were kept. */
  readonly keptAt: string;
  /**
   * The file now: as it was when the edits were kept (`same`), changed or in conflict with them
   * (`changed`: saving the restored text replaces what is there), gone (`missing`: the text comes
   * back in an untitled tab), or there never was one (`untitled`).
   */
  readonly disk: 'same' | 'changed' | 'missing' | 'untitled';
}

export interface RecoveryRequests {
  'recovery.list': { params: Record<string, never>; result: { edits: UiRecoveredEdit[] } };
  /**
   * Opens the kept text in this page's window as a tab with unsaved changes; the file on disk is
   * left as it is until the person saves. Refused while the file is open with unsaved changes of
   * its own.
   */
  'recovery.restore': { params: { id: string }; result: { tabId: string } };
  /** Drops the kept edits for good. */
  'recovery.discard': { params: { id: string }; result: Record<string, never> };
}

/** Kept edits were restored or discarded (in any window): every window shows what is left. */
export type RecoveryMessage = {
  readonly type: 'recovery.changed';
  readonly edits: readonly UiRecoveredEdit[];
};
