/**
 * The live editors of the UI, as far as the host knows them: the editor a person
 * last worked in reports its tab, mode and selection. Positions are always
 * offsets into the document's Markdown source (UTF-16 code units), in both
 * modes (ADR 19), so a plugin can slice `DocumentSnapshot.content` with them.
 */

/** `source` shows the Markdown as it is; `wysiwyg` is live preview over the same text. */
export type EditorMode = 'source' | 'wysiwyg';

export interface SourceRange {
  /** `from <= to`; equal for a cursor. */
  readonly from: number;
  readonly to: number;
}

/** The editor a person last focused, with its selection. */
export interface LiveEditor {
  readonly tabId: string;
  readonly documentId: string;
  readonly mode: EditorMode;
  readonly selection: SourceRange;
  /**
   * The document revision `selection` belongs to. The host maps a reported
   * selection through every later change, so this is normally the current one.
   */
  readonly revision: string;
}

export interface Editors {
  /**
   * The editor the person last focused, while its page is connected and it
   * shows a tab (losing focus to another application keeps it); `null` when no
   * page shows an editor.
   */
  focused(): LiveEditor | null;
}
