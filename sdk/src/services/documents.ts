import type { Disposable } from '../lifecycle.js';
import type { ToolCaller } from '../tool.js';

/** A read-only view of one document buffer. */
export interface DocumentSnapshot {
  /** `doc-N`, stable for the life of the buffer. */
  readonly id: string;
  /** Absolute path on disk, or `null` for an untitled buffer. */
  readonly filePath: string | null;
  /**
   * The whole text. The host may build it only when first read (it holds a large document as
   * a rope while a person types): a reader on every change that needs only part of it asks
   * `head` (host API 1.12.0).
   */
  readonly content: string;
  /**
   * The first `length` characters (all of them when the text is shorter), without building the
   * whole text (host API 1.12.0; absent from older hosts' snapshots: read `content`).
   */
  readonly head?: (length: number) => string;
  /**
   * The characters in [from, to) (clamped to the text), without building the whole text (host
   * API 1.13.0; absent from older hosts' snapshots: slice `content`).
   */
  readonly slice?: (from: number, to: number) => string;
  /** `rev-` + 8 random alphanumerics; changes on every content change. */
  readonly revision: string;
  readonly kind: string;
  /** The buffer differs from what was last read from or written to disk. */
  readonly dirty: boolean;
  /** Set while the file on disk and this buffer have parted ways and neither may be dropped. */
  readonly conflict?: DiskConflict;
}

/**
 * The file changed (or went away) on disk while the buffer had unsaved changes.
 * The buffer is kept; the file is not overwritten until someone who has been
 * shown the disk's text (a `document.read` serves it with the conflict) writes or
 * saves deliberately.
 */
export interface DiskConflict {
  readonly reason: 'changed-on-disk' | 'deleted-on-disk';
  readonly message: string;
  /** The text on disk; null when there is no file or it is not UTF-8 text. */
  readonly diskContent: string | null;
  /** SHA-256 of the bytes on disk (null: no file), so that an answer names what it answers. */
  readonly diskSha256: string | null;
}

/** Who changed a document; hooks and the AI edit history use it. */
export type ChangeOrigin =
  | {
      readonly kind: 'mcp';
      readonly caller: ToolCaller;
      readonly tool: string;
      readonly action: string;
      /** What the change did, for the AI edit history; derived from tool and action when absent. */
      readonly description?: string;
      /**
       * `false` for a change computed from the document alone (a formatter, a patch): what
       * the client read before it is not what it was made from. Absent means it may be.
       */
      readonly derivedFromReads?: boolean;
    }
  | { readonly kind: 'editor' }
  | { readonly kind: 'disk' }
  | { readonly kind: 'host' };

export interface ReadOptions {
  /**
   * `false` for a read that hands on part of the text only (a window of `document.read`): it
   * is a read all the same (the `documentRead` hook sees it), but the reader has not been
   * shown the disk's text of a conflict, so it does not let their next write replace it.
   */
  readonly whole?: boolean;
}

/** The characters in [from, to) replaced by `insert`: offsets into the text as it is. */
export interface RangeReplacement {
  readonly from: number;
  readonly to: number;
  readonly insert: string;
}

export interface ReplaceOptions {
  /** Refuse with `STALE` unless the document is still at this revision. */
  readonly expectedRevision?: string;
  readonly origin: ChangeOrigin;
}

export interface WriteOptions extends ReplaceOptions {
  /** Save the change to the document's file (`false`: the buffer only). */
  readonly save: boolean;
}

export interface DocumentStore {
  /** @throws DomainError `INVALID_TAB` when there is no such document. */
  get(documentId: string): DocumentSnapshot;
  /** Like `get`, for a read made on someone's behalf: the host's `documentRead` hook sees it. */
  read(documentId: string, origin: ChangeOrigin, options?: ReadOptions): DocumentSnapshot;
  /**
   * Replaces the whole text. Unchanged text keeps the revision. The kind is
   * detected again from the new text.
   * @throws DomainError `STALE`, or `READ_ONLY` when a `beforeDocumentWrite` tap vetoes.
   */
  replace(documentId: string, content: string, options: ReplaceOptions): Promise<DocumentSnapshot>;
  /**
   * Like `replace`, for a change to one range: the text is not built or compared whole, and the
   * editors receive the change as it is (host API 1.13.0).
   * @throws ArgumentError when the range is not inside the text; DomainError `STALE`, or
   *   `READ_ONLY` when a `beforeDocumentWrite` tap vetoes.
   */
  replaceRange(
    documentId: string,
    range: RangeReplacement,
    options: ReplaceOptions,
  ): Promise<DocumentSnapshot>;
  /**
   * A tool's write: replaces the whole text and, with `save`, saves it, as one step. A
   * buffer without unsaved changes is written to disk first and takes the text only once
   * it is there; if the file changed on disk meanwhile, nothing is kept — the buffer takes
   * the disk's text and the call fails with `STALE` (`conflict: "changed-on-disk"`), so
   * the writer reads again and never replaces what it has not seen. A buffer with unsaved
   * changes (a person's, or a conflict) takes the text, and the save is reported as with
   * `trySave`.
   * @throws DomainError `STALE`, or `READ_ONLY` when a `beforeDocumentWrite` tap vetoes.
   */
  write(documentId: string, content: string, options: WriteOptions): Promise<SaveOutcome>;
  /**
   * Adds host-managed metadata (an identity line) to a file inside the scope, whether or not
   * a tab shows it: `edit` is applied to the text on disk and, where the file is open, to the
   * buffer, which keeps its revision and its dirty state (a person's unsaved changes stay
   * unsaved). Saved like any save, never over bytes the host has not seen. `edit` returns
   * null to leave a text as it is.
   * @returns the file's text after the edit.
   * @throws DomainError `INVALID_PATH` (out of scope, not a text file) or `STALE` when the
   *   file keeps changing under the edit.
   */
  annotate(filePath: string, edit: (text: string) => string | null): Promise<string>;
  /**
   * Writes the buffer to its file: scope-checked, atomic, and never over bytes
   * that changed on disk since this host last read or wrote them.
   * @throws DomainError `INVALID_PATH` (untitled, out of scope, missing folder),
   *   `READ_ONLY` (file without write permission) or `STALE` with
   *   `conflict: "changed-on-disk"` (another program changed the file).
   */
  save(documentId: string): Promise<DocumentSnapshot>;
  /**
   * Saves the document if it has a file and unsaved changes, and reports the
   * outcome instead of throwing: a failed save leaves the text in the buffer,
   * dirty, and the file as it was (`save_error` says why).
   */
  trySave(documentId: string): Promise<SaveOutcome>;
}

/** What a write tool reports about persisting its change (the seed's `document.write` result). */
export interface SaveOutcome {
  readonly revision: string;
  readonly saved: boolean;
  readonly save_skipped?: 'opt_out' | 'untitled';
  readonly save_error?: string;
}

/** A kind of document ("markdown", "yaml-workflow", ...) that a plugin contributes. */
export interface DocumentKind {
  readonly id: string;
  /** Higher wins when several kinds claim a document; a fallback kind uses the lowest. */
  readonly priority: number;
  /** Whether this kind claims a document at `filePath` (null if untitled) with this text. */
  detect(filePath: string | null, content: string): boolean;
  /**
   * False when `detect` decides from the path alone for this path: the host then need not build
   * the text of a large document on every keystroke to ask, and passes `''` (host API 1.12.0).
   * Absent: the content is always read.
   */
  readsContent?(filePath: string | null): boolean;
}

export interface DocumentKinds {
  register(kind: DocumentKind): Disposable;
  /** Registered kind ids, highest priority first. */
  list(): string[];
  /**
   * `content` may be given as a function: called only if a kind reads the content for this path.
   * @throws Error when no registered kind claims the document.
   */
  detect(filePath: string | null, content: string | (() => string)): string;
}
